import { type DeviceAck, type DeviceWriteMessage, deviceWritesDestination } from "@ess/contracts";
import { getRegister } from "@ess/domain";
import type { Db } from "../../db/db.ts";
import type { RealtimeHub } from "../realtime/realtime-hub.ts";
import { type DeviceRequests, DeviceTimeoutError, RequestsStoppedError } from "../telemetry/device-requests.ts";
import type { LiveEvents } from "../telemetry/live-events.ts";
import type { Log } from "../telemetry/log.ts";
import {
  claimWrite,
  finishWrite,
  getWrite,
  nextQueued,
  OPEN_STATES,
  rememberSettings,
  type WriteRow,
  writeOfRequest,
} from "./write-records.repository.ts";
import { devicesToResume, endOverdueWrites, holdBulk, releaseBulk } from "./write-sweep.repository.ts";

/** The i18n key that says why a device refused (ack codes of docs/device-protocol.md). */
export const refusalKey = (code: string) => `settings:refusal.${code}`;

export interface DeviceWriterOptions {
  /** How long a change for an offline device waits for it (then it ends timed out). */
  queueTtlMs: number;
  /** Devices a bulk operation talks to at once. */
  bulkConcurrency: number;
  /** How often records past their time are ended and abandoned queues taken up (the sweep). */
  sweepMs: number;
}

/** Records younger than this are left to the request that made them (it sends them itself). */
const RESUME_GRACE_MS = 2000;

/**
 * Sends recorded writes to devices and records how they ended: `sent` once published (with a
 * request id and a deadline in the row), then `acknowledged`, `refused` (with the device's code) or
 * `timed_out` — a write the device did not answer in time is never counted as done. Writes for
 * offline devices stay `queued` and are sent, in order, when the device comes back (presence's
 * status event); past their expiry they end timed out. Nothing depends on the process that sent a
 * record staying alive: a sweep that any process runs ends what is past its time, and sends what a
 * stopped process left queued; an acknowledgement reaches its record in whichever process receives
 * it. Every change of state is published live on `/device/{id}/writes`.
 */
export function createDeviceWriter(deps: {
  db: Db;
  requests: DeviceRequests | null;
  hub: RealtimeHub;
  events: LiveEvents | null;
  log: Log;
  options: DeviceWriterOptions;
}) {
  const { db } = deps;
  const answerWithinMs = deps.requests?.timeoutMs ?? 5000;
  // A bulk operation's sender renews its hold every sweep; three missed renewals free it.
  const bulkLeaseMs = 3 * deps.options.sweepMs;
  const flushing = new Map<number, Promise<void>>();
  const startedAt = new Date();
  // Once stopping, nothing more is claimed: what is still queued stays for another process, or the next start.
  let stopped = false;
  const beforeFlushHooks: ((deviceId: number) => Promise<void>)[] = [];

  const publish = (row: WriteRow | undefined) => {
    if (!row) return;
    const message: DeviceWriteMessage = {
      id: row.id,
      deviceId: row.device_id,
      state: row.state,
      refusal: row.refusal,
      sentAt: row.sent_at?.getTime() ?? null,
      finishedAt: row.finished_at?.getTime() ?? null,
      attempts: row.attempts,
    };
    deps.hub.publish(deviceWritesDestination(row.device_id), message);
  };

  /**
   * Ends a record as the device answered, if it is still open. A record already final (timed out,
   * by this process or a sweep) stays as it is: the answer came too late to count. Either way a
   * setting the device acknowledged is what it now holds, so its value is remembered.
   */
  async function applyAck(row: WriteRow, ack: DeviceAck): Promise<WriteRow | undefined> {
    if (ack.ok && row.kind === "setting") {
      await rememberSettings(db, row.device_id, Object.fromEntries(row.changes.map((c) => [c.key, c.new])));
    }
    const late = () =>
      deps.log.info({ writeId: row.id, ok: ack.ok, code: ack.code }, "late device acknowledgement: the record stays as it ended");
    if (!OPEN_STATES.includes(row.state)) {
      late();
      return row;
    }
    const code = ack.code ?? "unsupported";
    const ended = ack.ok
      ? await finishWrite(db, row.id, "acknowledged", null, null, OPEN_STATES)
      : await finishWrite(db, row.id, "refused", code, refusalKey(code), OPEN_STATES);
    if (!ended) late();
    return settle(row.id, ended);
  }

  /** Publishes the record as it now is (also when another process or the sweep ended it first). */
  async function settle(id: number, changed: WriteRow | undefined): Promise<WriteRow | undefined> {
    const row = changed ?? (await getWrite(db, id));
    publish(row);
    return row;
  }

  /** Sends one queued write and waits for its end; answers the row as it then is. */
  async function dispatch(id: number, sn: string, options: { idle?: boolean } = {}): Promise<WriteRow | undefined> {
    if (stopped) return undefined;
    const claimed = await claimWrite(db, id, answerWithinMs, options);
    if (!claimed) return undefined;
    publish(claimed);
    if (!deps.requests) return settle(id, await finishWrite(db, id, "queued", null, null, ["sent"]));
    const requestId = claimed.request_id as number;
    try {
      const ack =
        claimed.kind === "command"
          ? await deps.requests.command(sn, claimed.command as number, answerWithinMs, requestId)
          : await deps.requests.write(
              sn,
              claimed.changes.map((c) => {
                const r = getRegister(c.key);
                const raw = typeof c.new === "number" && r ? Math.round(c.new / r.scale) : c.new;
                return { key: c.key, raw };
              }),
              answerWithinMs,
              requestId,
            );
      return applyAck(claimed, ack);
    } catch (error) {
      // Stopping: the record stays sent; its answer (in another process) or its deadline ends it.
      if (error instanceof RequestsStoppedError) return getWrite(db, id);
      if (error instanceof DeviceTimeoutError) {
        return settle(id, await finishWrite(db, id, "timed_out", "timeout", refusalKey("timeout"), ["sent"]));
      }
      // Publishing failed (broker connection lost): the device may never have seen it; send it again later.
      deps.log.warn({ err: error, writeId: id }, "device write not published; queued again");
      return settle(id, await finishWrite(db, id, "queued", null, null, ["sent"]));
    }
  }

  /** An acknowledgement this process has no waiter for: asked by another process, or by one that stopped. */
  async function onUnmatchedAck(sn: string, ack: DeviceAck): Promise<void> {
    const row = await writeOfRequest(db, sn, ack.id);
    if (row) await applyAck(row, ack);
  }
  deps.requests?.onUnmatchedAck(onUnmatchedAck);

  /**
   * Sends the queued writes of a device, oldest first, one at a time: each only while no other
   * record of the device is in flight, so that two processes flushing the same device keep the
   * order. Stops at the first it cannot send (the sweep takes the rest up later).
   */
  function flushDevice(deviceId: number): Promise<void> {
    const running = flushing.get(deviceId);
    if (running) return running.then(() => flushDevice(deviceId));
    const job = (async () => {
      const sn = (await db.query<{ sn: string }>("SELECT sn FROM device WHERE id = $1", [deviceId])).rows[0]?.sn;
      if (!sn || stopped || (await nextQueued(db, deviceId)) === undefined) return;
      // The device has just come back and nothing queued has reached it yet: what it holds now is
      // its own (a grid control reads the values it could not read while the device was away).
      for (const hook of beforeFlushHooks) {
        try {
          await hook(deviceId);
        } catch (error) {
          deps.log.warn({ err: error, deviceId }, "a step before sending queued writes failed; they are sent anyway");
        }
      }
      // Asked again: the hooks took time, and a record may have been ended meanwhile.
      for (let id = await nextQueued(db, deviceId); id !== undefined; id = await nextQueued(db, deviceId)) {
        const ended = await dispatch(id, sn, { idle: true });
        if (!ended || ended.state === "queued") return;
      }
    })()
      .catch((error) => deps.log.error({ err: error, deviceId }, "queued device writes failed"))
      .finally(() => flushing.delete(deviceId));
    flushing.set(deviceId, job);
    return job;
  }

  const onStatus = (deviceIds: number[], status: number) => {
    if (status !== 1) return;
    for (const id of deviceIds) void flushDevice(id);
  };
  deps.events?.on("status", onStatus);

  let resuming: Promise<unknown> | null = null;
  /**
   * Ends what is past its time and takes up queues nobody sends (`bulkConcurrency` devices a
   * round, the next round once these are done). Safe in any number of processes at once.
   */
  async function sweep(): Promise<void> {
    // A sweep interval of grace: a record whose sender is alive is ended by its sender.
    for (const row of await endOverdueWrites(db, deps.options.sweepMs)) publish(row);
    if (resuming || !deps.requests) return;
    const devices = await devicesToResume(db, {
      limit: deps.options.bulkConcurrency,
      graceMs: RESUME_GRACE_MS,
      heardSince: startedAt,
    });
    if (devices.length === 0) return;
    resuming = Promise.all(devices.map((d) => flushDevice(d.id))).finally(() => {
      resuming = null;
    });
  }
  let sweeping: Promise<void> | null = null;
  const timer = setInterval(() => {
    sweeping ??= sweep()
      .catch((error) => deps.log.error({ err: error }, "device write sweep failed"))
      .finally(() => {
        sweeping = null;
      });
  }, deps.options.sweepMs);
  timer.unref();

  /** Runs `work` over `items` with at most `limit` at a time. */
  async function paced<T>(items: readonly T[], limit: number, work: (item: T) => Promise<unknown>) {
    let next = 0;
    const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        await work(item).catch((error) => deps.log.error({ err: error }, "bulk device write failed"));
      }
    });
    await Promise.all(lanes);
  }

  return {
    dispatch,
    flushDevice,
    publish,
    sweep,
    /**
     * Runs `hook` whenever a device's queued writes are about to be sent, once per flush and before
     * the first of them (only when something is queued). A failing hook is logged; the writes go anyway.
     */
    beforeFlush(hook: (deviceId: number) => Promise<void>): () => void {
      beforeFlushHooks.push(hook);
      return () => {
        const at = beforeFlushHooks.indexOf(hook);
        if (at >= 0) beforeFlushHooks.splice(at, 1);
      };
    },
    /** How long a bulk operation's sender holds it without renewing (set when the operation is made). */
    bulkLeaseMs,
    /**
     * Sends the writes of a bulk operation, `bulkConcurrency` devices at a time, holding the
     * operation meanwhile (were this process to stop, another takes up what is left once the hold
     * lapses); offline ones stay queued (if asked) or are refused; `running` ones (a standby-only
     * setting while the newest reading says the device runs) are refused without being sent.
     */
    async runBulk(
      bulkId: number,
      writes: readonly { row: WriteRow; sn: string; online: boolean; queueIfOffline: boolean; running?: boolean }[],
    ) {
      const renew = setInterval(
        () =>
          void holdBulk(db, bulkId, bulkLeaseMs).catch((error) => deps.log.warn({ err: error, bulkId }, "bulk hold not renewed")),
        deps.options.sweepMs,
      );
      try {
        await paced(writes, deps.options.bulkConcurrency, async ({ row, sn, online, queueIfOffline, running }) => {
          if (online && running) {
            return settle(
              row.id,
              await finishWrite(db, row.id, "refused", "needsStandby", refusalKey("needsStandby"), ["queued"]),
            );
          }
          if (online) return dispatch(row.id, sn);
          // Left queued: the device's return sends it (flushDevice).
          if (queueIfOffline) return undefined;
          return settle(row.id, await finishWrite(db, row.id, "refused", "offline", "telemetry:deviceOffline", ["queued"]));
        });
      } finally {
        clearInterval(renew);
        await releaseBulk(db, bulkId).catch((error) => deps.log.warn({ err: error, bulkId }, "bulk hold not released"));
      }
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      deps.events?.off("status", onStatus as never);
      deps.requests?.onUnmatchedAck(null);
      await sweeping;
    },
  };
}

export type DeviceWriter = ReturnType<typeof createDeviceWriter>;
