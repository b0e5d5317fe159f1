import { type DeviceWriteMessage, deviceWritesDestination } from "@ess/contracts";
import { getRegister } from "@ess/domain";
import type { Db } from "../../db/db.ts";
import type { RealtimeHub } from "../realtime/realtime-hub.ts";
import { type DeviceRequests, DeviceTimeoutError } from "../telemetry/device-requests.ts";
import type { LiveEvents } from "../telemetry/live-events.ts";
import type { Log } from "../telemetry/log.ts";
import { claimWrite, expireQueued, finishWrite, queuedOf, rememberSettings, type WriteRow } from "./write-records.repository.ts";

/** The i18n key that says why a device refused (ack codes of docs/device-protocol.md). */
export const refusalKey = (code: string) => `settings:refusal.${code}`;

export interface DeviceWriterOptions {
  /** How long a change for an offline device waits for it (then it ends timed out). */
  queueTtlMs: number;
  /** Devices a bulk operation talks to at once. */
  bulkConcurrency: number;
}

/**
 * Sends recorded writes to devices and records how they ended: `sent` once published, then
 * `acknowledged`, `refused` (with the device's code) or `timed_out` — a write the device did not
 * answer in time is never counted as done. Writes for offline devices stay `queued` and are sent,
 * in order, when the device comes back (presence's status event); past their expiry they end
 * timed out. Every change of state is published live on `/device/{id}/writes`.
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
  const flushing = new Map<number, Promise<void>>();

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

  /** Sends one queued write and waits for its end; answers the final row. */
  async function dispatch(id: number, sn: string): Promise<WriteRow | undefined> {
    const claimed = await claimWrite(db, id);
    if (!claimed) return undefined;
    publish(claimed);
    if (!deps.requests) return finishAndPublish(id, "queued");
    try {
      const ack =
        claimed.kind === "command"
          ? await deps.requests.command(sn, claimed.command as number)
          : await deps.requests.write(
              sn,
              claimed.changes.map((c) => {
                const r = getRegister(c.key);
                const raw = typeof c.new === "number" && r ? Math.round(c.new / r.scale) : c.new;
                return { key: c.key, raw };
              }),
            );
      if (ack.ok) {
        if (claimed.kind === "setting") {
          await rememberSettings(db, claimed.device_id, Object.fromEntries(claimed.changes.map((c) => [c.key, c.new])));
        }
        return finishAndPublish(id, "acknowledged");
      }
      const code = ack.code ?? "unsupported";
      return finishAndPublish(id, "refused", code, refusalKey(code));
    } catch (error) {
      if (error instanceof DeviceTimeoutError) return finishAndPublish(id, "timed_out", "timeout", refusalKey("timeout"));
      // Publishing failed (broker connection lost): the device may never have seen it; wait for its return.
      deps.log.warn({ err: error, writeId: id }, "device write not published; queued again");
      return finishAndPublish(id, "queued");
    }
  }

  async function finishAndPublish(
    id: number,
    ...args: Parameters<typeof finishWrite> extends [unknown, unknown, ...infer R] ? R : never
  ) {
    const row = await finishWrite(db, id, ...args);
    publish(row);
    return row;
  }

  /** Sends the queued writes of a device that has come back, one after the other. */
  function flushDevice(deviceId: number): Promise<void> {
    const running = flushing.get(deviceId);
    if (running) return running.then(() => flushDevice(deviceId));
    const job = (async () => {
      const sn = (await db.query<{ sn: string }>("SELECT sn FROM device WHERE id = $1", [deviceId])).rows[0]?.sn;
      if (!sn) return;
      for (const id of await queuedOf(db, deviceId)) await dispatch(id, sn);
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
  const expiry = setInterval(
    () =>
      void expireQueued(db)
        .then((rows) => rows.forEach(publish))
        .catch((error) => deps.log.error({ err: error }, "expiring queued device writes failed")),
    30_000,
  );
  expiry.unref();

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
    /**
     * Sends the writes of a bulk operation, `bulkConcurrency` devices at a time; offline ones stay
     * queued (if asked) or are refused; `running` ones (a standby-only setting while the newest
     * reading says the device runs) are refused without being sent.
     */
    runBulk(writes: readonly { row: WriteRow; sn: string; online: boolean; queueIfOffline: boolean; running?: boolean }[]) {
      return paced(writes, deps.options.bulkConcurrency, async ({ row, sn, online, queueIfOffline, running }) => {
        if (online && running) return finishAndPublish(row.id, "refused", "needsStandby", refusalKey("needsStandby"));
        if (online) return dispatch(row.id, sn);
        // Left queued: the device's return sends it (flushDevice).
        if (queueIfOffline) return undefined;
        return finishAndPublish(row.id, "refused", "offline", "telemetry:deviceOffline");
      });
    },
    stop() {
      clearInterval(expiry);
      deps.events?.off("status", onStatus as never);
    },
  };
}

export type DeviceWriter = ReturnType<typeof createDeviceWriter>;
