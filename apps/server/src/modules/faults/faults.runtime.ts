import type { Db } from "../../db/db.ts";
import type { Translate } from "../../i18n/translator.ts";
import type { RealtimeHub } from "../realtime/realtime-hub.ts";
import type { LiveEvents } from "../telemetry/live-events.ts";
import type { Log } from "../telemetry/log.ts";
import { createAlarmDetector, observationOfEvent, observationsOfFrame } from "./alarm-detector.ts";
import { createAlarmNotifier } from "./alarm-notifier.ts";
import { createFaultCache } from "./fault-cache.ts";

export interface FaultOptions {
  clearHoldS: number;
  stormDevices: number;
  stormWindowS: number;
}

/**
 * The alarm side of the device pipeline: committed frames and stored alarm events feed the
 * detector; alarms it opens and devices going on or off line become live reminders.
 */
export async function startFaults(
  deps: { db: Db; hub: RealtimeHub; events: LiveEvents; log: Log; t: Translate },
  options: FaultOptions,
) {
  const catalogue = createFaultCache(deps.db);
  const notifier = createAlarmNotifier({
    db: deps.db,
    hub: deps.hub,
    catalogue,
    t: deps.t,
    log: deps.log,
    stormDevices: options.stormDevices,
    stormWindowMs: options.stormWindowS * 1000,
  });
  const detector = createAlarmDetector({
    db: deps.db,
    catalogue,
    log: deps.log,
    clearHoldMs: options.clearHoldS * 1000,
    onOpened: (alarms) => notifier.opened(alarms),
  });
  await detector.start();
  const onFrames = (frames: readonly Parameters<typeof observationsOfFrame>[0][]) => {
    void detector.observe(frames.flatMap((f) => observationsOfFrame(f, detector.hasOpen(f.device.id))));
  };
  const onAlarm = (...[device, event]: Parameters<typeof observationOfEvent>) => {
    const o = observationOfEvent(device, event);
    if (o) void detector.observe([o]);
  };
  const onStatus = (deviceIds: number[], status: number) => notifier.status(deviceIds, status);
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
