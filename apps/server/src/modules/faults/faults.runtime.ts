import type { AlarmEvent } from "@ess/contracts";
import type { Locale } from "@ess/domain";
import type { Db } from "../../db/db.ts";
import type { Translate } from "../../i18n/translator.ts";
import type { Metrics } from "../../observability/metrics.ts";
import type { RealtimeHub } from "../realtime/realtime-hub.ts";
import type { DeviceRef } from "../telemetry/device-directory.ts";
import type { LiveEvents } from "../telemetry/live-events.ts";
import type { Log } from "../telemetry/log.ts";
import type { StoredFrame } from "../telemetry/telemetry-writer.ts";
import { createAlarmDetector } from "./alarm-detector.ts";
import { createAlarmNotifier } from "./alarm-notifier.ts";
import { observationOfEvent } from "./alarm-observations.ts";
import { createFaultCache } from "./fault-cache.ts";

export interface FaultOptions {
  clearHoldS: number;
  stormDevices: number;
  stormWindowS: number;
  /** Observations no step applied within this are applied by the recovery pass, which runs this often. */
  recoveryS: number;
}

/**
 * The alarm side of the device pipeline: committed frames and stored alarm events feed the
 * detector; alarms it opens and devices going on or off line become live reminders.
 */
export async function startFaults(
  deps: {
    db: Db;
    hub: RealtimeHub;
    events: LiveEvents;
    log: Log;
    translator: (locale: Locale) => Translate;
    metrics: Pick<Metrics, "alarmDetectionFailures" | "alarmUnknownCodes">;
  },
  options: FaultOptions,
) {
  const catalogue = createFaultCache(deps.db, deps.translator);
  const notifier = createAlarmNotifier({
    db: deps.db,
    hub: deps.hub,
    catalogue,
    t: deps.translator("en-US"),
    log: deps.log,
    stormDevices: options.stormDevices,
    stormWindowMs: options.stormWindowS * 1000,
  });
  const detector = createAlarmDetector({
    db: deps.db,
    catalogue,
    log: deps.log,
    metrics: deps.metrics,
    clearHoldMs: options.clearHoldS * 1000,
    recoveryAfterMs: options.recoveryS * 1000,
    onOpened: (alarms) => notifier.opened(alarms),
  });
  await detector.start();
  const onFrames = (frames: readonly StoredFrame[], _committedAt: number, batchId: string) => detector.frames(frames, batchId);
  const onAlarm = (device: DeviceRef, event: AlarmEvent, receivedAt: number) => {
    detector.event({ device, event, receivedAt });
    const o = observationOfEvent({ device, event, receivedAt });
    if (o) {
      void catalogue
        .fault(o.tenantId, o.code, o.systemType)
        .then((known) => {
          if (!known) deps.metrics.alarmUnknownCodes.inc();
        })
        .catch(() => {});
    }
  };
  const onStatus = (deviceIds: number[], status: number, at: number) => notifier.status(deviceIds, status, at);
  deps.events.on("frames", onFrames);
  deps.events.on("alarm", onAlarm);
  deps.events.on("status", onStatus);
  return {
    services: { catalogue, detector, notifier },
    async stop() {
      deps.events.off("frames", onFrames as never);
      deps.events.off("alarm", onAlarm as never);
      deps.events.off("status", onStatus as never);
      await detector.stop();
      notifier.stop();
    },
  };
}

export type FaultServices = Awaited<ReturnType<typeof startFaults>>["services"];
