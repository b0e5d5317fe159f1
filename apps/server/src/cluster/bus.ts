import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import pg from "pg";
import type { Db, Queryable } from "../db/db.ts";
import type { Log } from "../modules/telemetry/log.ts";
import type { Metrics } from "../observability/metrics.ts";

/**
 * Events between the console's processes. Something that happened in one process (a live push, a
 * sign-out, a catalogue edit) is handled at once where it happened and, through the database, in
 * every other process; each process ignores its own notices, having handled them already.
 */
export interface ClusterBus {
  /** This process's name in its notices: host, pid and random digits. */
  readonly origin: string;
  /**
   * Returns a function that runs `handler` here at once and in every other process with the same
   * data (JSON), and answers what the handler answers here. Notices from other processes arrive in
   * the order they were sent.
   */
  broadcast<T, R = void>(topic: string, handler: (data: T) => R): (data: T) => R;
  /** Handles what the database itself announces on `channel` (triggers), in this process too. */
  listen(channel: string, handler: (payload: string) => void): void;
  /**
   * `handler` runs when notices may have been missed (the connection was lost, a queue overflowed):
   * whatever a notice would have invalidated should be dropped, and what others keep of this
   * process announced again.
   */
  onGap(handler: () => void): void;
  close(): Promise<void>;
}

/** The channel of the processes' own notices; triggers announce on channels of their own. */
const CHANNEL = "ess_cluster";
/**
 * NOTIFY refuses payloads of 8000 bytes or more; past this, the payload goes to `cluster_event`
 * and the notice carries its row's id (the margin leaves room for the envelope).
 */
export const NOTICE_MAX_BYTES = 7900;
const GAP_TOPIC = "bus.gap";
/** Notices per NOTIFY round trip: one statement keeps them in order and costs one round trip. */
const BATCH = 200;

interface Notice {
  o: string;
  /**
   * This process's count of notices: PostgreSQL delivers identical notices of one statement once,
   * and a batch may hold the same one twice (a watch taken, dropped and taken again).
   */
  n: number;
  t: string;
  d?: unknown;
  /** Row of `cluster_event` holding `d` when it was too large for a notice. */
  r?: number;
}

function newOrigin() {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
}

/**
 * One process alone (PGlite, whose folder no second process may open): broadcasts are handled
 * here only; the database's own announcements come through PGlite's in-process LISTEN.
 */
export function createLocalBus(db?: Pick<Db, "listen">): ClusterBus {
  const unlisten: Promise<() => Promise<void>>[] = [];
  return {
    origin: newOrigin(),
    broadcast: (_topic, handler) => handler,
    listen(channel, handler) {
      if (db?.listen) unlisten.push(db.listen(channel, handler));
    },
    onGap() {},
    async close() {
      for (const u of unlisten) await (await u)().catch(() => {});
    },
  };
}

export interface PostgresBusOptions {
  url: string;
  /** Sends notices and writes large payloads (the pool); listening has a connection of its own. */
  db: Queryable;
  log: Log;
  connectTimeoutMs: number;
  /** Runs on the listening connection at each (re)connect; a failure of the first ends the start. */
  onConnect?: (connection: Queryable) => Promise<void>;
  /** Notices waiting to be sent, and received ones waiting to be handled, beyond which the oldest are dropped. */
  maxQueue?: number;
  /** The listening connection is checked this often; a silent one is replaced. */
  pingMs?: number;
  metrics?: Pick<Metrics, "clusterNotices">;
}

/**
 * Several processes on one PostgreSQL: one LISTEN connection per process, opened again with
 * growing pauses (up to 10 s) when lost; notices sent in batches, in order, through the pool.
 * Queues are bounded: past `maxQueue` the oldest notices are dropped and the receivers told of a
 * gap, so that caches are dropped rather than left stale.
 */
export async function startPostgresBus(options: PostgresBusOptions): Promise<ClusterBus> {
  const origin = newOrigin();
  const maxQueue = options.maxQueue ?? 10_000;
  const handlers = new Map<string, (data: unknown) => void>();
  const channels = new Map<string, ((payload: string) => void)[]>();
  const gapHandlers: (() => void)[] = [];
  const outbox: { topic: string; data: unknown }[] = [];
  const inbox: Notice[] = [];
  let client: pg.Client | null = null;
  let closing = false;
  // Set and cleared inside the loops themselves, never in a later callback: a notice that arrives
  // in the moment between a loop's end and such a callback would wait for the next one.
  let sending = false;
  let receiving = false;
  let sent: Promise<void> = Promise.resolve();
  let handled: Promise<void> = Promise.resolve();
  let lastCleanup = 0;
  let numbered = 0;
  let ping: NodeJS.Timeout | null = null;
  let retry: NodeJS.Timeout | null = null;
  let failures = 0;
  const count = (outcome: "sent" | "received" | "large" | "dropped", n = 1) =>
    options.metrics?.clusterNotices.inc({ outcome }, n);

  const gap = (why: string) => {
    options.log.warn({ why }, "cluster events may have been missed; caches dropped");
    for (const handler of gapHandlers) handler();
  };

  // Each batch's failure is caught inside the loop, so the flag is always cleared after it (as in
  // `receive`, where each notice's is).
  async function send() {
    sending = true;
    while (outbox.length > 0 && !closing) {
      const batch = outbox.splice(0, BATCH);
      try {
        const payloads: string[] = [];
        for (const { topic, data } of batch) {
          const notice = JSON.stringify({ o: origin, n: ++numbered, t: topic, d: data } satisfies Notice);
          if (Buffer.byteLength(notice) <= NOTICE_MAX_BYTES) {
            payloads.push(notice);
            continue;
          }
          const { rows } = await options.db.query<{ id: number }>(
            "INSERT INTO cluster_event (payload) VALUES ($1) RETURNING id",
            [JSON.stringify(data)],
          );
          payloads.push(JSON.stringify({ o: origin, n: ++numbered, t: topic, r: rows[0]?.id } satisfies Notice));
          count("large");
          if (Date.now() - lastCleanup > 60_000) {
            lastCleanup = Date.now();
            // Receivers read a row within moments of its notice; minutes leave room for a slow one.
            await options.db.query("DELETE FROM cluster_event WHERE created_at < now() - interval '5 minutes'");
          }
        }
        await options.db.query(`SELECT pg_notify('${CHANNEL}', n) FROM unnest($1::text[]) AS n`, [payloads]);
        count("sent", payloads.length);
      } catch (error) {
        options.log.error({ err: error, notices: batch.length }, "cluster notices not sent");
        count("dropped", batch.length);
        // The others miss what was lost; they drop their caches instead of keeping stale entries.
        if (batch[0]?.topic !== GAP_TOPIC) outbox.unshift({ topic: GAP_TOPIC, data: null });
        await new Promise((resolve) => setTimeout(resolve, 1000).unref());
      }
    }
    sending = false;
  }
  const enqueue = (topic: string, data: unknown) => {
    outbox.push({ topic, data });
    if (outbox.length > maxQueue) {
      count("dropped", outbox.splice(0, outbox.length - maxQueue + 1).length);
      outbox.unshift({ topic: GAP_TOPIC, data: null });
      options.log.warn({ maxQueue }, "cluster notices dropped: the database does not keep up");
    }
    if (!sending) sent = send();
  };

  async function receive() {
    receiving = true;
    while (inbox.length > 0 && !closing) {
      const notice = inbox.shift() as Notice;
      try {
        let data = notice.d;
        if (notice.r !== undefined) {
          const { rows } = await options.db.query<{ payload: string }>("SELECT payload FROM cluster_event WHERE id = $1", [
            notice.r,
          ]);
          if (!rows[0]) {
            gap("a large notice's row was gone");
            continue;
          }
          data = JSON.parse(rows[0].payload);
        }
        if (notice.t === GAP_TOPIC) gap("another process dropped notices");
        else handlers.get(notice.t)?.(data);
      } catch (error) {
        options.log.error({ err: error, topic: notice.t }, "cluster notice not handled");
      }
    }
    receiving = false;
  }
  const onNotification = (message: pg.Notification) => {
    if (message.channel !== CHANNEL) {
      for (const handler of channels.get(message.channel) ?? []) handler(message.payload ?? "");
      return;
    }
    let notice: Notice;
    try {
      notice = JSON.parse(message.payload ?? "");
    } catch {
      return;
    }
    if (notice.o === origin) return;
    count("received");
    inbox.push(notice);
    if (inbox.length > maxQueue) {
      count("dropped", inbox.length);
      inbox.length = 0;
      gap("too many notices waiting");
      return;
    }
    if (!receiving) handled = receive();
  };

  const quote = (channel: string) => `"${channel.replace(/"/g, '""')}"`;
  async function connect() {
    const next = new pg.Client({
      connectionString: options.url,
      connectionTimeoutMillis: options.connectTimeoutMs,
      query_timeout: options.connectTimeoutMs,
      keepAlive: true,
      // Named, so an operator sees in pg_stat_activity which connection listens for the console.
      application_name: "ess-cluster-events",
    });
    next.on("error", () => lost(next));
    next.on("end", () => lost(next));
    next.on("notification", onNotification);
    try {
      await next.connect();
      for (const channel of [CHANNEL, ...channels.keys()]) await next.query(`LISTEN ${quote(channel)}`);
      if (options.onConnect) await options.onConnect(next);
    } catch (error) {
      next.removeAllListeners("end");
      await next.end().catch(() => {});
      throw error;
    }
    client = next;
    failures = 0;
  }
  function lost(which: pg.Client) {
    if (client !== which || closing) return;
    client = null;
    which.end().catch(() => {});
    options.log.warn({}, "cluster events: database connection lost; opening it again");
    reconnect();
  }
  function reconnect() {
    const pause = Math.min(10_000, 250 * 2 ** failures) * (0.75 + Math.random() * 0.5);
    retry = setTimeout(() => {
      retry = null;
      if (closing) return;
      connect().then(
        () => {
          options.log.info({}, "cluster events: database connection back");
          gap("the connection was lost");
        },
        (error: unknown) => {
          failures++;
          options.log.warn({ err: error }, "cluster events: database not reachable; trying again");
          reconnect();
        },
      );
    }, pause);
    retry.unref();
  }

  await connect();
  ping = setInterval(() => {
    const current = client;
    current?.query("SELECT 1").catch(() => lost(current));
  }, options.pingMs ?? 15_000);
  ping.unref();

  return {
    origin,
    broadcast<T, R>(topic: string, handler: (data: T) => R) {
      handlers.set(topic, handler as (data: unknown) => void);
      return (data: T) => {
        const answer = handler(data);
        enqueue(topic, data);
        return answer;
      };
    },
    listen(channel, handler) {
      const list = channels.get(channel);
      if (list) return void list.push(handler);
      channels.set(channel, [handler]);
      client?.query(`LISTEN ${quote(channel)}`).catch(() => client && lost(client));
    },
    onGap(handler) {
      gapHandlers.push(handler);
    },
    async close() {
      // What was queued goes out first: a sign-out just before a stop must still reach the others;
      // a database that does not answer does not hold the stop for long.
      await Promise.race([sent, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
      closing = true;
      // A notice being handled finishes (the rest are dropped) before the connection goes.
      await handled;
      if (ping) clearInterval(ping);
      if (retry) clearTimeout(retry);
      const last = client;
      client = null;
      await last?.end().catch(() => {});
    },
  };
}
