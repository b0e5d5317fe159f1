import type { GridClock } from "./grid-context.ts";

/**
 * A task repeated at the interval it returns (the pollRate or postRate the server last gave), so a
 * rate the server changes is followed from the next round. A failure is reported and the task tried
 * again after a growing wait (doubling from `retryMs` up to `maxRetryMs`): an unreachable utility
 * is never fatal and never hammered. A periodic loop never waits longer than the period the utility
 * last gave, though: once it answers again, the client is back within one of its own pollRates
 * (CSIP-AUS ALL-23 reads the controls within two minutes of communications returning).
 */
export interface LoopOptions {
  clock: GridClock;
  signal: AbortSignal;
  /** Runs one round; resolves to the wait before the next, ms. */
  run: () => Promise<number>;
  onFailure: (error: unknown) => void;
  retryMs?: number;
  maxRetryMs?: number;
  /** Wait before the first round (default none). */
  firstWaitMs?: number;
  /**
   * The wait `run` returns is a period counted from the round's start (a pollRate), not a wait
   * from its end: a round that takes a while must not stretch the period the utility asked for.
   */
  periodic?: boolean;
  /** The period assumed until a round succeeds (the utility's default rate), bounding early retries. */
  periodMs?: number;
  /**
   * Each wait ends on the next whole multiple of this many ms of the clock (never earlier than
   * asked). Loops of many sites then wake together: their requests leave in bursts on warm
   * connections and caches, and their database reads join one batch, instead of each round waking
   * the process alone. A period that is a multiple of it keeps its exact length after the first round.
   */
  alignMs?: number;
}

/** The wait from `now` that ends at `now + wait` or the first multiple of `alignMs` after it. */
export function alignedWait(now: number, wait: number, alignMs: number | undefined): number {
  if (!alignMs || alignMs <= 0) return wait;
  return Math.ceil((now + wait) / alignMs) * alignMs - now;
}

export async function runLoop(options: LoopOptions): Promise<void> {
  const retryMs = options.retryMs ?? 5_000;
  const maxRetryMs = options.maxRetryMs ?? 300_000;
  let failures = 0;
  let periodMs = options.periodMs ?? Number.POSITIVE_INFINITY;
  if (options.firstWaitMs) {
    try {
      await options.clock.sleep(options.firstWaitMs, options.signal);
    } catch {
      return;
    }
  }
  while (!options.signal.aborted) {
    let wait: number;
    const started = options.clock.now();
    try {
      wait = await options.run();
      if (options.periodic) {
        periodMs = wait;
        wait -= options.clock.now() - started;
      }
      failures = 0;
    } catch (error) {
      if (options.signal.aborted) return;
      options.onFailure(error);
      wait = Math.min(maxRetryMs, retryMs * 2 ** failures, periodMs);
      failures++;
    }
    try {
      await options.clock.sleep(alignedWait(options.clock.now(), Math.max(0, wait), options.alignMs), options.signal);
    } catch {
      return;
    }
  }
}
