import type { Queryable } from "../db/db.ts";
import { createThrottledLog } from "../modules/telemetry/log.ts";
import type { Metrics } from "../observability/metrics.ts";
import { type LeasedJob, type LeasedRun, type LeaseLog, startLeasedJob } from "./job-lease.ts";

/**
 * A job's start under its lease (job-lease.ts): the abort signal fires the moment the lease is
 * lost; the token is the lease's fencing token, for writes that must not outlive the lease.
 */
export type JobStart = (signal: AbortSignal, token: number) => LeasedRun | Promise<LeasedRun>;

/**
 * Periodic work as a leased job's run: `work` every `everyMs` (and at once with `now`), never two
 * runs at a time (a tick while one runs is skipped); the stop ends the timer and awaits the run in
 * flight. A failure is logged (once per 30 s) and the next tick tries again.
 */
export function every(
  everyMs: number,
  work: () => Promise<unknown>,
  options: { log: LeaseLog; what: string; now?: boolean },
): LeasedRun {
  const throttled = createThrottledLog(options.log, 30_000);
  let running: Promise<void> | null = null;
  const tick = () => {
    running ??= work()
      .then(() => {})
      .catch((error: unknown) => throttled.warn(options.what, { err: error }, `${options.what} failed; tried again later`))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, everyMs);
  timer.unref();
  if (options.now) tick();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

export interface LeasedJobs {
  /** The lease of each job, by name. */
  readonly leases: ReadonlyMap<string, LeasedJob<LeasedRun>>;
  /** Settles once every job had its first try (and, where acquired, its start). */
  readonly firstTry: Promise<void>;
  /** Stops every job; `release: false` leaves the leases to expire, as a killed process would. */
  stop(options?: { release?: boolean }): Promise<void>;
}

/**
 * Starts each job under its own lease, named by the job, so that each runs in one process of the
 * console and the jobs spread over the processes as their leases happen to fall.
 */
export function startLeasedJobs(
  deps: {
    db: Queryable;
    log: LeaseLog;
    metrics?: Pick<Metrics, "jobLeader">;
    ttlMs?: number;
    renewMs?: number;
    stopTimeoutMs?: number;
    /** The process's holder id (default: one per lease, see processHolderId). */
    holder?: string;
  },
  jobs: Readonly<Record<string, JobStart>>,
): LeasedJobs {
  const leases = new Map<string, LeasedJob<LeasedRun>>();
  for (const [job, start] of Object.entries(jobs)) {
    leases.set(
      job,
      startLeasedJob({
        db: deps.db,
        job,
        log: deps.log,
        ...(deps.holder === undefined ? {} : { holder: deps.holder }),
        ...(deps.metrics ? { metrics: deps.metrics } : {}),
        ...(deps.ttlMs === undefined ? {} : { ttlMs: deps.ttlMs }),
        ...(deps.renewMs === undefined ? {} : { renewMs: deps.renewMs }),
        ...(deps.stopTimeoutMs === undefined ? {} : { stopTimeoutMs: deps.stopTimeoutMs }),
        start: (signal, token) => start(signal, token),
      }),
    );
  }
  return {
    leases,
    firstTry: Promise.all([...leases.values()].map((l) => l.firstTry)).then(() => {}),
    async stop(options) {
      await Promise.all([...leases.values()].map((l) => l.stop(options)));
    },
  };
}
