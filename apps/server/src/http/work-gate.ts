import { AppError } from "./errors.ts";

export interface GateLimits {
  /** Pieces of work running at once. */
  concurrency: number;
  /** Pieces waiting for a slot beyond which new work is refused (429) at once. */
  queue: number;
}

/**
 * Admits heavy work (password hashes, spreadsheet workers) a few at a time, so a flood queues
 * instead of taking every core, and refuses it outright once the waiting room is full instead of
 * making everything behind wait longer.
 */
export function createWorkGate(initial: GateLimits) {
  let limits = initial;
  let running = 0;
  const waiting: (() => void)[] = [];
  return {
    configure(next: GateLimits) {
      limits = next;
    },
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (running < limits.concurrency) running++;
      else if (waiting.length >= limits.queue) throw new AppError("rateLimited");
      // The slot is handed over by the work that ends, so `running` stays as it is.
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await work();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else running--;
      }
    },
  };
}
