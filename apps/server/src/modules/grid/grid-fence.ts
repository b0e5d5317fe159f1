import { holdLease, type LeaseFence, type LeaseLog, LeaseLostError, leaseStillHeld } from "../../cluster/job-lease.ts";
import type { Queryable } from "../../db/db.ts";

/**
 * The grid client's lease fence. The client runs under the `grid` job's lease; a process held up
 * past it (a stalled event loop) may carry on after another process took the lease over, and two
 * clients must never record or answer the same control. So the client's durable writes carry the
 * condition that the lease is still held under its token; the first one that finds it is not stops
 * the client (one warning). Nothing that changes something at the utility is sent once the client
 * has stopped, and a Response only once the database confirmed the lease (one statement per
 * Response; the polls' reads cost nothing more).
 */
export interface GridFence {
  /** The lease and the token the client runs under; null: unfenced (a client started outside a lease). */
  readonly lease: LeaseFence | null;
  /** Aborted when the client stops: asked to, its lease lost, or fenced out. */
  readonly signal: AbortSignal;
  /** A fenced write found the lease gone: stops the client (a warning, once) and throws. */
  lost(): never;
  /**
   * Before a request that changes something at the utility: throws once the client has stopped;
   * with `confirm`, also unless the database still holds the lease under the client's token.
   */
  ensure(confirm?: boolean): Promise<void>;
}

/** The `n`th and next parameters of a statement as its fence condition (see fenceArgs). */
export const fenced = (n: number) => leaseStillHeld(`$${n}`, `$${n + 1}`);

/** The parameters `fenced` reads: the lease's job and token (nulls: no fence). */
export const fenceArgs = (fence: GridFence): [string | null, number | null] => [
  fence.lease?.job ?? null,
  fence.lease?.token ?? null,
];

/** No lease: every write and request goes through (the client is stopped only by its own stop). */
export const UNFENCED: GridFence = {
  lease: null,
  signal: new AbortController().signal,
  lost() {
    throw new Error("an unfenced grid client cannot lose a lease");
  },
  async ensure() {},
};

export function createGridFence(deps: {
  db: Queryable;
  lease: LeaseFence | null;
  /** The client's own stop, aborted here when the lease is found gone. */
  stop: AbortController;
  log: LeaseLog;
}): GridFence {
  const { lease, stop } = deps;
  let warned = false;
  function lost(): never {
    if (!lease) throw new Error("an unfenced grid client cannot lose a lease");
    if (!warned) {
      warned = true;
      deps.log.warn(lease, "grid: lease taken over by another process; this client stops writing and sending");
    }
    const error = new LeaseLostError(lease);
    if (!stop.signal.aborted) stop.abort(error);
    throw error;
  }
  return {
    lease,
    signal: stop.signal,
    lost,
    async ensure(confirm = false) {
      if (stop.signal.aborted) throw stop.signal.reason ?? new Error("grid client stopped");
      if (!confirm || !lease) return;
      // A statement of its own: its row lock ends with it (no lock could cover the request that follows anyway).
      if (!(await holdLease(deps.db, lease))) lost();
    },
  };
}
