import type { AlarmDetector } from "../modules/faults/alarm-detector.ts";
import type { OtaEngine } from "../modules/ota/ota.engine.ts";
import type { EnergyRollup } from "../modules/telemetry/energy-rollup.ts";
import type { PartitionKeeper } from "../modules/telemetry/partitions.ts";
import type { Presence } from "../modules/telemetry/presence.ts";
import type { LeaseLog } from "./job-lease.ts";
import { every, type JobStart } from "./leased-jobs.ts";

/**
 * The console's periodic work over the whole fleet, each job under its own lease, so that it runs
 * in exactly one process (docs/ARCHITECTURE.md, "Jobs that run in one process", says why each of
 * these and not the others). Jobs that share nothing hold separate leases, so that they may run in
 * different processes; the alarm sweep and the alarm recovery pass share one (they share the
 * detector's one-step-at-a-time chain and the same rows).
 */
export const CONSOLE_JOBS = ["ota", "presence-sweep", "alarm-sweeps", "energy-recovery", "partitions"] as const;
export type ConsoleJob = (typeof CONSOLE_JOBS)[number];

export interface ConsoleJobServices {
  ota: Pick<OtaEngine, "start" | "stop">;
  presence: Pick<Presence, "sweep">;
  detector: Pick<AlarmDetector, "sweep" | "recover" | "sweepEveryMs" | "recoveryAfterMs">;
  rollup: Pick<EnergyRollup, "recover">;
  partitions: Pick<PartitionKeeper, "ensureAround" | "dropExpired">;
}

export interface ConsoleJobTimes {
  /** How often devices silent past their time are marked offline. */
  presenceSweepMs: number;
  /** How often the energy of batches nobody flushed is merged, and after how long a batch counts as nobody's. */
  energyRecoveryMs: number;
  energyRecoveryAfterMs: number;
  partitionUpkeepMs: number;
}

export const DEFAULT_CONSOLE_JOB_TIMES: Omit<ConsoleJobTimes, "energyRecoveryMs" | "energyRecoveryAfterMs"> = {
  presenceSweepMs: 10_000,
  partitionUpkeepMs: 3_600_000,
};

/** Energy recovery from the rollup's flush interval: a live process flushes its batches well within three of them. */
export function energyRecoveryTimes(rollupMs: number): Pick<ConsoleJobTimes, "energyRecoveryMs" | "energyRecoveryAfterMs"> {
  return { energyRecoveryMs: Math.max(rollupMs, 10_000), energyRecoveryAfterMs: Math.max(3 * rollupMs, 30_000) };
}

export function consoleJobs(s: ConsoleJobServices, times: ConsoleJobTimes, log: LeaseLog): Record<ConsoleJob, JobStart> {
  return {
    // Fenced: a batch claimed by a holder held up past its lease would be a second batch.
    ota: (_signal, token) => {
      s.ota.start({ job: "ota", token });
      return { stop: () => s.ota.stop() };
    },
    "presence-sweep": () => every(times.presenceSweepMs, () => s.presence.sweep(), { log, what: "presence: timeout sweep" }),
    "alarm-sweeps": () => {
      const sweep = every(s.detector.sweepEveryMs, () => s.detector.sweep(), { log, what: "alarm detection: sweep" });
      const recovery = every(s.detector.recoveryAfterMs, () => s.detector.recover(), { log, what: "alarm recovery" });
      return { stop: () => Promise.all([sweep.stop(), recovery.stop()]).then(() => {}) };
    },
    "energy-recovery": () =>
      every(times.energyRecoveryMs, () => s.rollup.recover({ olderThanMs: times.energyRecoveryAfterMs }), {
        log,
        what: "daily energy recovery",
        now: true,
      }),
    // At once on taking the lease too (as the energy recovery): with processes restarting more
    // often than hourly, an hourly timer alone might never fire.
    partitions: () =>
      every(
        times.partitionUpkeepMs,
        async () => {
          await s.partitions.ensureAround();
          const dropped = await s.partitions.dropExpired();
          if (dropped.length > 0) log.info({ dropped }, "telemetry partitions past retention dropped");
        },
        { log, what: "telemetry partition upkeep", now: true },
      ),
  };
}
