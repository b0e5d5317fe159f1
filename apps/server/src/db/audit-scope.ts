import { AsyncLocalStorage } from "node:async_hooks";
import type { Queryable } from "./db.ts";

/**
 * The operation-log line of one change request, while the request runs. The audited database
 * (`audited-db.ts`) writes it in the first transaction that changes something, before COMMIT, so
 * the change and its line are committed together or not at all; the operation-log hook then
 * completes that line (final status, code, duration), or inserts it when nothing was changed.
 */
export interface AuditScope {
  /** Inserts the request's line (presumed successful so far) with `tx`; answers its id. */
  insertLine(tx: Queryable): Promise<number>;
  /**
   * The line committed with the request's first change (empty until then). Two transactions of one
   * request that commit their first changes concurrently each carry a line: both are completed.
   */
  lineIds: number[];
  /**
   * Set when the answer is being sent: work the request started and left running (device writes
   * in flight, OTA ticks) is no longer part of its change.
   */
  closed: boolean;
}

const storage = new AsyncLocalStorage<AuditScope>();

/** Runs a change request's handler inside its audit scope. */
export function runAudited<T>(scope: AuditScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/**
 * Starts work that outlives the request (or is not part of its change) outside its audit scope:
 * its writes then commit on their own, as they would from a timer.
 */
export function detached<T>(fn: () => T): T {
  return storage.exit(fn);
}

/** The scope whose line is still to be written, if the caller runs inside one. */
export function pendingAuditScope(): AuditScope | undefined {
  const scope = storage.getStore();
  return scope && !scope.closed && scope.lineIds.length === 0 ? scope : undefined;
}
