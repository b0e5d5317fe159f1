import { type AlarmEvent, alarmEvent, deviceStatusPayload, type OtaProgress, otaProgress } from "@ess/contracts";
import type { Db } from "../../db/db.ts";
import type { DeviceRouter } from "../../mqtt/device-router.ts";
import type { DeviceDirectory, DeviceRef } from "./device-directory.ts";
import { createThrottledLog, type Log } from "./log.ts";
import type { Presence } from "./presence.ts";

const UPGRADING_STAGES = new Set(["accepted", "downloading", "flashing", "verifying"]);

/** Where upgrade reports go besides presence: the OTA module sets `progress` when it starts. */
export interface UpgradeReports {
  progress: ((deviceId: number, progress: OtaProgress) => Promise<void>) | null;
}

/**
 * Device messages other than telemetry and replies: online/offline status (the last will),
 * alarm events (stored for the alarm feature, once each) and upgrade progress (online status 2
 * while an upgrade runs). Each is acknowledged once handled; a malformed one is logged and
 * acknowledged, since sending it again would not mend it.
 */
export function registerDeviceEvents(deps: {
  db: Db;
  router: DeviceRouter;
  directory: DeviceDirectory;
  presence: Presence;
  log: Log;
  /** Called with each alarm event once stored (the alarm feature opens and closes alarms from it). */
  onAlarm?: (device: DeviceRef, event: AlarmEvent) => void;
  upgrades?: UpgradeReports;
}) {
  const throttled = createThrottledLog(deps.log, 60_000);
  const deviceOf = async (sn: string) => (await deps.directory.resolve([sn])).get(sn);
  const json = (payload: Buffer): unknown => {
    try {
      return JSON.parse(payload.toString("utf8"));
    } catch {
      return undefined;
    }
  };

  deps.router.on("status", (sn, payload) =>
    (async () => {
      const status = deviceStatusPayload.safeParse(payload.toString("utf8").trim());
      const device = await deviceOf(sn);
      if (!device) return;
      if (!status.success) {
        throttled.warn(`${sn}:status`, { sn }, "device status refused: expected online or offline");
        return;
      }
      if (status.data === "offline") await deps.presence.setStatus([device.id], 0, "will");
      else deps.presence.noteSeen([device.id]);
    })(),
  );

  deps.router.on("alarm", (sn, payload) =>
    (async () => {
      const event = alarmEvent.safeParse(json(payload));
      const device = await deviceOf(sn);
      if (!device) return;
      deps.presence.noteSeen([device.id]);
      if (!event.success) {
        throttled.warn(`${sn}:alarm`, { sn, issues: event.error.issues.slice(0, 3) }, "alarm event refused");
        return;
      }
      const e = event.data;
      await deps.db.query(
        `INSERT INTO device_alarm_event (device_id, ts, register, bit, state, code, level)
         VALUES ($1, to_timestamp($2 / 1000.0), $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
        [device.id, e.ts, e.key, e.bit, e.state, e.code ?? null, e.level ?? null],
      );
      deps.onAlarm?.(device, e);
    })(),
  );

  deps.router.on("ota", (sn, payload) =>
    (async () => {
      const progress = otaProgress.safeParse(json(payload));
      const device = await deviceOf(sn);
      if (!device) return;
      if (!progress.success) {
        throttled.warn(`${sn}:ota`, { sn }, "upgrade progress refused");
        deps.presence.noteSeen([device.id]);
        return;
      }
      const upgrading = UPGRADING_STAGES.has(progress.data.stage);
      await deps.upgrades?.progress?.(device.id, progress.data);
      await deps.presence.setStatus([device.id], upgrading ? 2 : 1, "upgrade");
    })(),
  );
}
