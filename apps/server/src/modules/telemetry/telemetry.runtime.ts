import type { Db } from "../../db/db.ts";
import type { MqttBus } from "../../mqtt/bus.ts";
import type { DeviceRouter } from "../../mqtt/device-router.ts";
import type { Metrics } from "../../observability/metrics.ts";
import { createDeviceDirectory } from "./device-directory.ts";
import { registerDeviceEvents, type UpgradeReports } from "./device-events.ts";
import { createDeviceRequests } from "./device-requests.ts";
import { createEnergyRollup } from "./energy-rollup.ts";
import { createIdentityReader } from "./identity-reader.ts";
import { createTelemetryIngest } from "./ingest.ts";
import { createLiveEvents } from "./live-events.ts";
import type { Log } from "./log.ts";
import { createPartitionKeeper } from "./partitions.ts";
import { createPresence } from "./presence.ts";

export interface TelemetryOptions {
  offlineAfterS: number;
  pageReadTimeoutMs: number;
  retentionDays: number;
  maxBatch?: number;
  flushMs?: number;
  /** Batches written at once (ESS_INGEST_WRITERS). */
  writers?: number;
  /** How often the daily energy takes in what ingest stored (energy-rollup.ts). */
  rollupMs: number;
  /** How often online devices whose battery chemistry is unknown are asked for it (identity-reader.ts); 0: never. */
  identityReadMs?: number;
}

/**
 * Starts the device side of the server: ingest, presence, device events and requests, all fed by
 * the device router. The caller opens the router (and, on an external broker, attaches it to the
 * bus) once this has registered every handler. What runs here runs in every process (its own
 * ingest, its own buffers); the periodic work over the whole fleet — presence's timeout sweep, the
 * energy recovery, partition upkeep — runs in one process under a lease (cluster/console-jobs.ts).
 */
export async function startTelemetry(
  deps: {
    db: Db;
    bus: MqttBus;
    router: DeviceRouter;
    metrics: Metrics;
    log: Log;
    /** External broker: silence is judged against what the console hears (presence.ts). */
    listening?: { resubscribedAt(): Date | null };
  },
  options: TelemetryOptions,
) {
  const directory = createDeviceDirectory(deps.db);
  const partitions = createPartitionKeeper(deps.db, { retentionDays: options.retentionDays });
  await partitions.ensureAround();
  const rollup = createEnergyRollup({ db: deps.db, log: deps.log, flushMs: options.rollupMs });
  // Batches stored before a stop whose daily energy was not merged yet.
  await rollup.recover();
  rollup.start();
  const events = createLiveEvents();
  const presence = createPresence({
    db: deps.db,
    log: deps.log,
    offlineAfterS: options.offlineAfterS,
    onChange: (ids, status, at) => events.emit("status", ids, status, at),
    ...(deps.listening ? { listening: deps.listening } : {}),
  });
  const ingest = createTelemetryIngest({
    db: deps.db,
    directory,
    partitions,
    rollup,
    metrics: deps.metrics,
    log: deps.log,
    maxBatch: options.maxBatch,
    flushMs: options.flushMs,
    concurrency: options.writers,
    listener: {
      seen: (devices) => presence.noteSeen(devices.map((d) => d.id)),
      committed: (frames, at, batchId) => events.emit("frames", frames, at, batchId),
    },
  });
  deps.router.on("telemetry", (sn, payload) => ingest.submit(sn, payload));
  const upgrades: UpgradeReports = { progress: null };
  registerDeviceEvents({
    db: deps.db,
    router: deps.router,
    directory,
    presence,
    log: deps.log,
    metrics: deps.metrics,
    inRetention: partitions.inRetention,
    upgrades,
    onAlarm: (device, event, receivedAt) => events.emit("alarm", device, event, receivedAt),
  });
  const requests = createDeviceRequests({
    bus: deps.bus,
    router: deps.router,
    log: deps.log,
    timeoutMs: options.pageReadTimeoutMs,
  });
  presence.start();
  const identity = createIdentityReader({ db: deps.db, requests, log: deps.log, everyMs: options.identityReadMs ?? 0 });
  identity.start();

  return {
    services: { directory, ingest, rollup, presence, requests, events, partitions, upgrades },
    async stop() {
      await identity.stop();
      requests.stop();
      await ingest.stop();
      await rollup.stop();
      await presence.stop();
    },
  };
}

export type TelemetryServices = Awaited<ReturnType<typeof startTelemetry>>["services"];
