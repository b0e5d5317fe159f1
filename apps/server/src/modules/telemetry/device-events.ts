import { type AlarmEvent, alarmEvent, deviceStatusPayload, type OtaProgress, otaProgress } from "@ess/contracts";
import { DEVICE_CLOCK_AHEAD_MAX_MS } from "@ess/domain";
import type { Db } from "../../db/db.ts";
import type { DeviceRouter } from "../../mqtt/device-router.ts";
import type { Metrics } from "../../observability/metrics.ts";
import type { DeviceDirectory, DeviceRef } from "./device-directory.ts";
import { createThrottledLog, type Log } from "./log.ts";
import type { Presence } from "./presence.ts";

const UPGRADING_STAGES = new Set(["accepted", "downloading", "flashing", "verifying"]);

/**
 * Where upgrade reports go besides presence: the OTA module sets `progress` when it starts; it
 * answers whether an upgrade of the device is still under way once the report is applied.
 */
export interface UpgradeReports {
  progress: ((deviceId: number, progress: OtaProgress) => Promise<boolean>) | null;
}

/**
 * Device messages other than telemetry and replies: online/offline status (the last will),
 * alarm events (stored for the alarm feature, once each) and upgrade progress (online status 2
 * while an upgrade runs). Each is acknowledged once handled; a malformed one is logged and
 * acknowledged, since sending it again would not mend it. Alarm events are bounded in time like
 * readings: one dated more than DEVICE_CLOCK_AHEAD_MAX_MS ahead of the console's clock, or older
 * than the history keeps, is refused (counted, logged, acknowledged, not stored).
 */
export function registerDeviceEvents(deps: {
  db: Db;
  router: DeviceRouter;
  directory: DeviceDirectory;
  presence: Presence;
  log: Log;
  metrics: Metrics;
  /** Whether a device time is within the history's retention (the same bound as readings). */
  inRetention: (ts: number, now: number) => boolean;
  /** Called with each alarm event once stored (the alarm feature opens and closes alarms from it). */
  onAlarm?: (device: DeviceRef, event: AlarmEvent, receivedAt: number) => void;
  upgrades?: UpgradeReports;
}) {
  const throttled = createThrottledLog(deps.log, 60_000);
  const deviceOf = async (sn: string) => (await deps.directory.resolve([sn])).get(sn);
  // A device's status and upgrade reports change its online status: they are applied one after the
  // other in the order they arrived (a report sent just before the device's goodbye must not land
  // after it and make the device look online again).
  const inOrder = new Map<string, Promise<void>>();
  const oneAtATime = (sn: string, work: () => Promise<void>): Promise<void> => {
    const next = (inOrder.get(sn) ?? Promise.resolve()).then(work, work);
    inOrder.set(sn, next);
    const forget = () => {
      if (inOrder.get(sn) === next) inOrder.delete(sn);
    };
    next.then(forget, forget);
    return next;
  };
  const json = (payload: Buffer): unknown => {
    try {
      return JSON.parse(payload.toString("utf8"));
    } catch {
      return undefined;
    }
  };

  deps.router.on("status", (sn, payload) =>
    oneAtATime(sn, async () => {
      const status = deviceStatusPayload.safeParse(payload.toString("utf8").trim());
      const device = await deviceOf(sn);
      if (!device) return;
      if (!status.success) {
        throttled.warn(`${sn}:status`, { sn }, "device status refused: expected online or offline");
        return;
      }
      if (status.data === "offline") await deps.presence.setStatus([device.id], 0, "will");
      else deps.presence.noteSeen([device.id]);
    }),
  );

  deps.router.on("alarm", (sn, payload) =>
    (async () => {
      const receivedAt = Date.now();
      const event = alarmEvent.safeParse(json(payload));
      const device = await deviceOf(sn);
      if (!device) return;
      deps.presence.noteSeen([device.id]);
      if (!event.success) {
        deps.metrics.alarmEvents.inc({ outcome: "invalid" });
        throttled.warn(`${sn}:alarm`, { sn, issues: event.error.issues.slice(0, 3) }, "alarm event refused");
        return;
      }
      const e = event.data;
      if (e.ts > receivedAt + DEVICE_CLOCK_AHEAD_MAX_MS || !deps.inRetention(e.ts, receivedAt)) {
        deps.metrics.alarmEvents.inc({ outcome: "bad_time" });
        throttled.warn(`${sn}:alarm-time`, { sn, ts: e.ts }, "alarm event refused: its time is impossible");
        return;
      }
      const stored = await deps.db.query(
        `INSERT INTO device_alarm_event (device_id, ts, register, bit, state, code, level, received_at, buffered)
         VALUES ($1, to_timestamp($2 / 1000.0), $3, $4, $5, $6, $7, to_timestamp($8 / 1000.0), $9) ON CONFLICT DO NOTHING`,
        [device.id, e.ts, e.key, e.bit, e.state, e.code ?? null, e.level ?? null, receivedAt, e.buffered ?? false],
      );
      deps.metrics.alarmEvents.inc({ outcome: stored.rowCount > 0 ? "stored" : "duplicate" });
      // A repeated event was handed over when it was first stored (and is marked applied once it is).
      if (stored.rowCount > 0) deps.onAlarm?.(device, e, receivedAt);
    })(),
  );

  deps.router.on("ota", (sn, payload) =>
    oneAtATime(sn, async () => {
      const progress = otaProgress.safeParse(json(payload));
      const device = await deviceOf(sn);
      if (!device) return;
      if (!progress.success) {
        throttled.warn(`${sn}:ota`, { sn }, "upgrade progress refused");
        deps.presence.noteSeen([device.id]);
        return;
      }
      // The device is reporting: upgrading (2) while an upgrade of it is under way, else online —
      // also after a report on an order the console no longer waits for.
      const underWay = deps.upgrades?.progress
        ? await deps.upgrades.progress(device.id, progress.data)
        : UPGRADING_STAGES.has(progress.data.stage);
      await deps.presence.setStatus([device.id], underWay ? 2 : 1, "upgrade");
    }),
  );
}
