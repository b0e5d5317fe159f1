import type { AlarmEvent } from "@ess/contracts";
import type { Locale } from "@ess/domain";
import type { ClusterBus } from "../../cluster/bus.ts";
import type { Db } from "../../db/db.ts";
import type { Translate } from "../../i18n/translator.ts";
import type { Metrics } from "../../observability/metrics.ts";
import type { RealtimeHub } from "../realtime/realtime-hub.ts";
import type { DeviceRef } from "../telemetry/device-directory.ts";
import type { LiveEvents } from "../telemetry/live-events.ts";
import type { Log } from "../telemetry/log.ts";
import type { StoredFrame } from "../telemetry/telemetry-writer.ts";
import type { OpenedAlarm } from "./alarm-apply.ts";
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
    /** Other processes of the console: their users hear of alarms opened here, and catalogue edits reach them. */
    cluster?: ClusterBus;
  },
  options: FaultOptions,
) {
  const catalogue = createFaultCache(deps.db, deps.translator);
  const cluster = deps.cluster;
  if (cluster) {
    const invalidate = catalogue.invalidate;
    const everywhere = cluster.broadcast<number | null>("faults.catalogue", (tenantId) => invalidate(tenantId ?? undefined));
    catalogue.invalidate = (tenantId?: number) => everywhere(tenantId ?? null);
    cluster.onGap(() => invalidate());
  }
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
    // Each process reminds the users whose consoles it serves, of alarms opened in any process.
    onOpened: cluster ? cluster.broadcast("alarms.opened", (alarms: OpenedAlarm[]) => notifier.opened(alarms)) : notifier.opened,
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
  const statusEverywhere = cluster?.broadcast<{ ids: number[]; status: number; at: number }>("alarms.status", (m) =>
    notifier.status(m.ids, m.status, m.at),
  );
  const onStatus = (deviceIds: number[], status: number, at: number) =>
    statusEverywhere && status !== 2 ? statusEverywhere({ ids: deviceIds, status, at }) : notifier.status(deviceIds, status, at);
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
