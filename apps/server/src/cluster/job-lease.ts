import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Queryable } from "../db/db.ts";
import type { Metrics } from "../observability/metrics.ts";

/**
 * "Run this job while this process holds the job's lease": several console processes on one
 * PostgreSQL elect, per job, the one that runs it (table job_lease, migration 0255). Every
 * statement uses the database's clock, never the process's, so processes on machines whose
 * clocks differ still agree on when a lease has expired.
 *
 * - Acquire and renew are one statement: it succeeds for the holder itself or when the lease has
 *   expired; a new acquisition increments the fencing token, a renewal keeps it.
 * - The holder renews every renewMs (default ttl/3). It stops its job at once when a renewal finds
 *   another holder, or when it could not renew for a ttl (counted from the start of its last
 *   successful renewal, less half a renew interval, so it stops before the database lets another
 *   process in — a held-up event loop aside, which is what the token is for).
 * - A clean stop stops the job, then expires the lease, so another process takes over at its next
 *   try instead of after the ttl.
 * Every wait (a statement, the job's start and stop) is bounded.
 */

export interface LeaseLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** What a job's start returns: its own stop, awaited when the lease is lost or the process stops. */
export interface LeasedRun {
  stop(): Promise<void>;
}

export interface LeasedJobOptions<T extends LeasedRun> {
  db: Queryable;
  /** The job's name, the lease's key. */
  job: string;
  /** Unique per process (default host name, pid and random digits); tests give several. */
  holder?: string;
  /** A lease not renewed for this long may be taken by another process. */
  ttlMs?: number;
  renewMs?: number;
  /** Longest wait for the job's start or stop, and for the release. */
  stopTimeoutMs?: number;
  log: LeaseLog;
  metrics?: Pick<Metrics, "jobLeader">;
  /** Starts the job; `signal` aborts the moment the lease is lost, before `stop` is awaited. */
  start(signal: AbortSignal, token: number): T | Promise<T>;
}

export interface LeasedJob<T extends LeasedRun> {
  readonly holder: string;
  /** Settles after the first attempt to acquire the lease (and the job's start if it was acquired). */
  readonly firstTry: Promise<void>;
  /** The fencing token while this process holds the lease; null otherwise. */
  token(): number | null;
  /** The running job while this process holds the lease and the job has started; null otherwise. */
  current(): T | null;
  /**
   * Stops renewing and stops the job; then releases the lease unless `release` is false (what a
   * killed process leaves behind: the lease expires after its ttl).
   */
  stop(options?: { release?: boolean }): Promise<void>;
}

export const DEFAULT_LEASE_TTL_MS = 15_000;

/** A job's lease and the token under which this process took it: what a job's writes may be fenced by. */
export interface LeaseFence {
  job: string;
  token: number;
}

/**
 * A condition, for a job's write, that holds while the lease named by the parameter `job` is still
 * held under the token `token` (both may be null: no fence). A process whose lease was taken over
 * while it was held up (a stalled event loop) writes nothing once it carries on.
 */
export const leaseStillHeld = (job: string, token: string) =>
  `(${job}::text IS NULL OR EXISTS (SELECT 1 FROM job_lease f WHERE f.job = ${job} AND f.token = ${token} AND f.expires_at > now()))`;

/** A fenced write found its job's lease taken over (or expired) since this process took it. */
export class LeaseLostError extends Error {
  override name = "LeaseLostError";
  constructor(fence: LeaseFence) {
    super(`job lease ${fence.job} no longer held under token ${fence.token}`);
  }
}

/**
 * Whether the lease is still held under the fence's token (true without a fence). Last in a
 * transaction, the row locked for share keeps any other process from taking the lease over until
 * the transaction ends: its writes land while the lease is held, or not at all.
 */
export async function holdLease(tx: Queryable, fence: LeaseFence | null): Promise<boolean> {
  if (!fence) return true;
  const { rows } = await tx.query("SELECT 1 FROM job_lease WHERE job = $1 AND token = $2 AND expires_at > now() FOR SHARE", [
    fence.job,
    fence.token,
  ]);
  return rows.length > 0;
}

/** holdLease, throwing LeaseLostError when the lease is no longer held: last in a fenced transaction, it rolls it back. */
export async function requireLease(tx: Queryable, fence: LeaseFence | null): Promise<void> {
  if (fence && !(await holdLease(tx, fence))) throw new LeaseLostError(fence);
}

/** One process's holder id: unique across hosts, processes and restarts with the same pid. */
export function processHolderId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
}

// A renewal by the holder itself keeps the token; any new acquisition (another holder, or the same
// one after its lease ran out) increments it.
const ACQUIRE = `INSERT INTO job_lease (job, holder, token, expires_at)
VALUES ($1, $2, 1, now() + $3 * interval '1 millisecond')
ON CONFLICT (job) DO UPDATE SET
  holder = EXCLUDED.holder,
  token = CASE WHEN job_lease.holder = EXCLUDED.holder AND job_lease.expires_at >= now()
    THEN job_lease.token ELSE job_lease.token + 1 END,
  expires_at = EXCLUDED.expires_at
WHERE job_lease.holder = EXCLUDED.holder OR job_lease.expires_at < now()
RETURNING token`;

// Expired rather than deleted: the row keeps its token, so the next holder's is higher.
const RELEASE = "UPDATE job_lease SET expires_at = '-infinity' WHERE job = $1 AND holder = $2";

const STOPPING = "process stopping";

function bounded<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

interface Leading<T> {
  token: number;
  abort: AbortController;
  run: Promise<T | null>;
  handle: T | null;
  expiry: NodeJS.Timeout | undefined;
}

export function startLeasedJob<T extends LeasedRun>(options: LeasedJobOptions<T>): LeasedJob<T> {
  const { db, job, log } = options;
  const holder = options.holder ?? processHolderId();
  const ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
  const renewMs = options.renewMs ?? Math.max(1, Math.floor(ttlMs / 3));
  const stopTimeoutMs = options.stopTimeoutMs ?? 10_000;
  // A statement that hangs must not hold up the next try (nor outlive the lease it would renew).
  const statementTimeoutMs = renewMs;
  const keepMs = ttlMs - renewMs / 2;
  const gauge = options.metrics?.jobLeader;
  gauge?.set({ job }, 0);

  const stopping = new AbortController();
  let leading: Leading<T> | null = null;
  /** The previous run's stop: a new run starts only after it, so one process never runs two. */
  let lastStop: Promise<void> = Promise.resolve();
  let failingSince: number | null = null;

  function begin(token: number, renewedAt: number) {
    const abort = new AbortController();
    const entry: Leading<T> = { token, abort, run: Promise.resolve(null), handle: null, expiry: undefined };
    leading = entry;
    gauge?.set({ job }, 1);
    log.info({ job, holder, token }, "job lease acquired; job starting in this process");
    entry.run = lastStop
      .then(() =>
        abort.signal.aborted ? null : bounded(Promise.resolve(options.start(abort.signal, token)), stopTimeoutMs, `${job} start`),
      )
      .then(
        (handle) => {
          if (handle && leading === entry) entry.handle = handle;
          return handle;
        },
        (error: unknown) => {
          log.error({ err: error, job, holder }, "job did not start; lease given up for another try");
          if (leading === entry) void end("job did not start").then(release);
          return null;
        },
      );
    extend(entry, renewedAt);
  }

  function extend(entry: Leading<T>, renewedAt: number) {
    clearTimeout(entry.expiry);
    const left = renewedAt + keepMs - performance.now();
    entry.expiry = setTimeout(
      () => {
        if (leading === entry) void end("lease not renewed within its ttl");
      },
      Math.max(0, left),
    );
  }

  /** Aborts the job at once, then awaits its stop (bounded). */
  function end(reason: string): Promise<void> {
    const entry = leading;
    if (!entry) return lastStop;
    leading = null;
    clearTimeout(entry.expiry);
    gauge?.set({ job }, 0);
    entry.abort.abort(new Error(reason));
    const level = reason === STOPPING ? "info" : "warn";
    log[level]({ job, holder, token: entry.token, reason }, "job lease given up; job stopping in this process");
    const stopped = entry.run
      .then((handle) => handle?.stop())
      .catch((error: unknown) => log.error({ err: error, job, holder }, "job did not stop cleanly"));
    lastStop = bounded(stopped, stopTimeoutMs, `${job} stop`).catch((error: unknown) =>
      log.error({ err: error, job, holder }, "job stop not awaited to its end"),
    );
    return lastStop;
  }

  async function release(): Promise<void> {
    await bounded(db.query(RELEASE, [job, holder]), stopTimeoutMs, "lease release").catch((error: unknown) =>
      log.warn({ err: error, job, holder }, "job lease not released; another process takes it after its ttl"),
    );
  }

  async function attempt(): Promise<void> {
    const sentAt = performance.now();
    let token: number | null;
    try {
      const { rows } = await bounded(
        db.query<{ token: number }>(ACQUIRE, [job, holder, ttlMs]),
        statementTimeoutMs,
        "lease statement",
      );
      token = rows[0] ? Number(rows[0].token) : null;
    } catch (error) {
      if (failingSince === null) {
        failingSince = sentAt;
        log.warn({ err: error, job, holder, leading: leading !== null }, "job lease not renewed; trying again");
      }
      return;
    }
    if (failingSince !== null) {
      log.info({ job, holder, failedMs: Math.round(sentAt - failingSince) }, "job lease statements answered again");
      failingSince = null;
    }
    if (stopping.signal.aborted) return;
    // Not awaited: the job's stop must not hold up the renewals (a new run waits for it anyway).
    if (token === null) {
      if (leading) void end("another process holds the lease");
      return;
    }
    if (leading && leading.token !== token) void end("lease was taken again under a new token");
    if (leading) extend(leading, sentAt);
    else begin(token, sentAt);
  }

  let first: (() => void) | null = null;
  const firstTry = new Promise<void>((resolve) => {
    first = resolve;
  });
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      const began = performance.now();
      await attempt();
      const settle = first;
      if (settle) {
        first = null;
        const entry = leading as Leading<T> | null;
        void (entry ? bounded(entry.run, stopTimeoutMs, "first start").catch(() => null) : Promise.resolve()).then(settle);
      }
      await pause(Math.max(0, renewMs - (performance.now() - began)), stopping.signal);
    }
  })();

  return {
    holder,
    firstTry,
    token: () => leading?.token ?? null,
    current: () => leading?.handle ?? null,
    async stop({ release: releasing = true } = {}) {
      if (stopping.signal.aborted) return;
      stopping.abort();
      (first as (() => void) | null)?.();
      // The attempt in flight is bounded by statementTimeoutMs.
      await loop;
      await end(STOPPING);
      if (releasing) await release();
    },
  };
}
