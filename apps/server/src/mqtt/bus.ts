import mqtt, { type IClientOptions, type MqttClient } from "mqtt";
import { holdAcknowledgements } from "./deferred-acks.ts";

/**
 * Handles one message. When it returns a promise, a QoS 1 message is acknowledged only once the
 * promise resolves (the handler has made it durable); a rejection leaves it unacknowledged, so the
 * broker delivers it again after a reconnect.
 */
export type MessageHandler = (topic: string, payload: Buffer) => void | Promise<void>;

export interface MqttBus {
  isConnected(): boolean;
  /**
   * Subscribes to a filter. `shared` (the default on an external broker) subscribes as
   * `$share/group/…` so that several server processes split the messages between them; replies
   * that only the asking process can match (page answers, acks) subscribe unshared.
   */
  subscribe(filter: string, handler: MessageHandler, options?: { shared?: boolean }): Promise<void>;
  /**
   * Sends every subscription again. The bus does so itself after each reconnection; the ingest
   * watchdog calls it when a connected broker delivers nothing. Rejects when the broker refuses one.
   */
  resubscribe(reason: ResubscribeReason): Promise<void>;
  publish(topic: string, payload: string | Buffer, options?: { qos?: 0 | 1; retain?: boolean }): Promise<void>;
  /**
   * Empties and ends the persistent session of another process of this console that is gone
   * (its client id): see drainSession. Resolves with the number of messages it handed on.
   */
  drainSession(clientId: string, limits: DrainLimits): Promise<number>;
  close(): Promise<void>;
}

export interface DrainLimits {
  /** The session counts as empty once nothing has arrived for this long. */
  quietMs: number;
  /** Longest the drain may take. */
  maxMs: number;
}

export type ResubscribeReason = "reconnect" | "silence";

export class BrokerUnreachableError extends Error {
  readonly url: string;
  constructor(url: string, reason: string) {
    super(reason);
    this.url = url;
  }
}

export function topicMatches(filter: string, topic: string): boolean {
  const f = filter.split("/");
  const t = topic.split("/");
  for (let i = 0; i < f.length; i++) {
    if (f[i] === "#") return true;
    if (i >= t.length) return false;
    if (f[i] !== "+" && f[i] !== t[i]) return false;
  }
  return f.length === t.length;
}

/** A subscription filter as a regular expression (compiled once; matched for every message). */
export function filterPattern(filter: string): RegExp {
  const parts = filter.split("/").map((p) => (p === "+" ? "[^/]+" : p === "#" ? ".*" : p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  return new RegExp(`^${parts.join("/").replace(/\/\.\*$/, "(/.*)?")}$`);
}

export interface BusOptions {
  url: string;
  username?: string | undefined;
  password?: string | undefined;
  clientId: string;
  connectTimeoutMs: number;
  /** Shared-subscription group (external brokers); unset: plain subscriptions. */
  sharedGroup?: string | undefined;
  /**
   * Keep the session at the broker across disconnects (MQTT 5, clean start off): messages that
   * arrive while the server is away wait for it. Needs a client id that stays the same.
   */
  persistentSession?: boolean;
  /** Seconds the broker keeps a persistent session after a disconnect. */
  sessionExpiryS?: number;
  /** Told when the subscriptions were sent again, and when that failed (the next connection tries again). */
  onResubscribed?: (reason: ResubscribeReason, error: Error | null) => void;
  /**
   * Told of every message delivered: whether it came through a shared subscription (devices'
   * reports, not replies to this process) and whether it is a retained one a subscription replays.
   */
  onDelivered?: (delivery: { shared: boolean; retained: boolean }) => void;
}

export async function connectBus(options: BusOptions): Promise<MqttBus> {
  const persistent = options.persistentSession ?? false;
  const clientOptions: IClientOptions = {
    clientId: options.clientId,
    username: options.username,
    password: options.password,
    // aedes speaks MQTT 3.1.1 only; external brokers get MQTT 5 for the session expiry and the
    // receive maximum that lets thousands of messages wait for their batch to commit.
    protocolVersion: persistent ? 5 : 4,
    clean: !persistent,
    ...(persistent ? { properties: { sessionExpiryInterval: options.sessionExpiryS ?? 604_800, receiveMaximum: 65535 } } : {}),
    reconnectPeriod: 1000,
    connectTimeout: options.connectTimeoutMs,
    // mqtt.js subscribes again only when the broker says it has no session; a broker that kept
    // the session may still have lost its subscriptions (Mosquitto does not save shared ones), so
    // the bus does it after every reconnection itself. (With this on, mqtt.js would also skip a
    // SUBSCRIBE for a filter it believes active.)
    resubscribe: false,
  };
  const client: MqttClient = mqtt.connect(options.url, clientOptions);
  const handlers: { filter: string; match: RegExp; handler: MessageHandler; shared: boolean }[] = [];
  // Messages that arrive before a handler for them is registered (a persistent session delivers
  // its queue right after CONNACK) wait here, unacknowledged.
  const waiting: { topic: string; payload: Buffer; release: (p: Promise<void>) => void }[] = [];
  const acks = holdAcknowledgements(client);
  // What the broker is asked for, as sent on the wire (`$share/group/…` or plain).
  const wireFilters = new Set<string>();
  // Retained messages (devices' last status) only when the subscription is new: Mosquitto 2.0.11
  // replays them to shared subscriptions, and would on every re-subscription otherwise.
  const wireOptions = { qos: 1 as const, rh: 1 };
  const resubscribe = async (reason: ResubscribeReason) => {
    if (wireFilters.size === 0) return;
    try {
      await client.subscribeAsync([...wireFilters], wireOptions);
      options.onResubscribed?.(reason, null);
    } catch (error) {
      options.onResubscribed?.(reason, error as Error);
      throw error;
    }
  };

  client.on("message", (topic, payload, packet) => {
    const matching = handlers.filter((h) => h.match.test(topic));
    options.onDelivered?.({ shared: matching.some((h) => h.shared), retained: packet.retain });
    if (matching.length === 0) {
      if (packet.qos === 0) return;
      acks.hold(
        packet,
        new Promise<void>((resolve, reject) => waiting.push({ topic, payload, release: (p) => p.then(resolve, reject) })),
      );
      return;
    }
    const outcome = dispatch(matching, topic, payload);
    if (outcome && packet.qos > 0) acks.hold(packet, outcome);
  });

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`no answer within ${options.connectTimeoutMs} ms`)), options.connectTimeoutMs);
    const fail = (error: Error) => {
      clearTimeout(timer);
      client.end(true);
      reject(new BrokerUnreachableError(options.url, error.message));
    };
    client.once("connect", () => {
      clearTimeout(timer);
      client.off("error", fail);
      resolve();
    });
    client.once("error", fail);
  });
  // After the first connect, mqtt.js reconnects by itself; errors are reported, never thrown.
  client.on("error", () => {});
  client.on("connect", () => void resubscribe("reconnect").catch(() => {}));

  return {
    isConnected: () => client.connected,
    async subscribe(filter, handler, subscribeOptions) {
      const shared = Boolean(options.sharedGroup) && (subscribeOptions?.shared ?? true);
      handlers.push({ filter, match: filterPattern(filter), handler, shared });
      for (let i = waiting.length - 1; i >= 0; i--) {
        const w = waiting[i];
        if (w && topicMatches(filter, w.topic)) {
          waiting.splice(i, 1);
          w.release(dispatch([{ handler }], w.topic, w.payload) ?? Promise.resolve());
        }
      }
      const wire = shared ? `$share/${options.sharedGroup}/${filter}` : filter;
      wireFilters.add(wire);
      await client.subscribeAsync(wire, wireOptions);
    },
    resubscribe,
    async publish(topic, payload, publishOptions) {
      await client.publishAsync(topic, payload, { qos: publishOptions?.qos ?? 1, retain: publishOptions?.retain ?? false });
    },
    drainSession: (clientId, limits) =>
      drainSession(
        { ...clientOptions, clientId, reconnectPeriod: 0 },
        options.url,
        handlers.filter((h) => h.shared),
        [...wireFilters].filter((f) => f.startsWith("$share/")),
        limits,
      ),
    close: () => client.endAsync(),
  };
}

/**
 * A broker keeps a persistent session after its process died, and Mosquitto keeps routing that
 * session its share of a shared subscription's messages until the process comes back with the
 * same client id (measured: half of them with two members). So another process takes the session
 * over: it connects with the dead one's client id (the broker hands it what the session holds,
 * and sends again what was in flight), stops the session's subscriptions so that no new messages
 * are routed to it, hands every message to this process's own handlers, acknowledging each once
 * it is durable, and, once nothing has arrived for `quietMs`, disconnects with a session expiry
 * of 0, which ends the session. A process that returns with that client id meanwhile takes the
 * connection back (MQTT session takeover); what was not acknowledged then goes to it.
 */
async function drainSession(
  clientOptions: IClientOptions,
  url: string,
  handlers: readonly { match: RegExp; handler: MessageHandler }[],
  sharedFilters: string[],
  limits: DrainLimits,
): Promise<number> {
  const started = Date.now();
  const client = mqtt.connect(url, clientOptions);
  const acks = holdAcknowledgements(client);
  const outcomes: Promise<void>[] = [];
  let delivered = 0;
  let emptied = false;
  let lastAt = Date.now();
  client.on("message", (topic, payload, packet) => {
    delivered++;
    lastAt = Date.now();
    const outcome = dispatch(
      handlers.filter((h) => h.match.test(topic)),
      topic,
      payload,
    );
    if (outcome && packet.qos > 0) {
      acks.hold(packet, outcome);
      outcomes.push(outcome.catch(() => {}));
    }
  });
  client.on("error", () => {});
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no answer")), limits.maxMs);
      client.once("connect", () => {
        clearTimeout(timer);
        resolve();
      });
      client.once("close", () => reject(new Error("closed")));
    });
    // The dead process subscribed to what this one subscribes to (one console, one group).
    if (sharedFilters.length > 0) await client.unsubscribeAsync(sharedFilters).catch(() => {});
    while (client.connected && Date.now() - lastAt < limits.quietMs && Date.now() - started < limits.maxMs)
      await new Promise((resolve) => setTimeout(resolve, Math.min(100, limits.quietMs)));
    // What was handed on is acknowledged once stored; not waited for past the drain's time (the
    // broker then keeps what was not acknowledged, and the session, for the next look).
    const left = Math.max(0, limits.maxMs - (Date.now() - started));
    let timer: NodeJS.Timeout | undefined;
    const stored = await Promise.race([
      Promise.all(outcomes).then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), left);
      }),
    ]);
    clearTimeout(timer);
    if (!stored) throw new Error("what the session held was not stored in time");
    emptied = true;
  } finally {
    // Ended only once emptied; otherwise left as it was, with what it still holds, for the next look.
    if (client.connected && emptied) await client.endAsync(false, { reasonCode: 0, properties: { sessionExpiryInterval: 0 } });
    else if (client.connected) await client.endAsync(false);
    else client.end(true);
  }
  return delivered;
}

function dispatch(matching: { handler: MessageHandler }[], topic: string, payload: Buffer): Promise<void> | null {
  const pending: Promise<void>[] = [];
  for (const h of matching) {
    try {
      const result = h.handler(topic, payload);
      if (result) pending.push(result);
    } catch {
      // A handler that throws has already counted and logged the message; it is acknowledged.
    }
  }
  if (pending.length === 0) return null;
  return pending.length === 1 ? (pending[0] as Promise<void>) : Promise.all(pending).then(() => undefined);
}
