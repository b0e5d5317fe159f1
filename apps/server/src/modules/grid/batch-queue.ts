/**
 * What the grid client writes in batches (exchanged documents, poll times): items gather in a batch
 * that is written `delayMs` after its first item, or at once when it holds `maxBatch`; batches are
 * written one at a time, in order, and a failed batch is reported, not retried (both are records
 * for review, not state the client depends on).
 */
export interface BatchQueue<B> {
  /** The batch being gathered: add to it, then call `added`. */
  readonly waiting: B;
  added(): void;
  /** Writes what waits; resolves once every batch so far is written. */
  flush(): Promise<void>;
}

export function createBatchQueue<B>(options: {
  empty: () => B;
  size: (batch: B) => number;
  write: (batch: B) => Promise<void>;
  delayMs: number;
  maxBatch?: number;
  onError: (error: unknown) => void;
}): BatchQueue<B> {
  const maxBatch = options.maxBatch ?? Number.POSITIVE_INFINITY;
  let waiting = options.empty();
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    if (options.size(waiting) === 0) return writing;
    const batch = waiting;
    waiting = options.empty();
    writing = writing.then(() => options.write(batch)).catch(options.onError);
    return writing;
  }

  return {
    get waiting() {
      return waiting;
    },
    added() {
      if (options.size(waiting) >= maxBatch) void flush();
      else timer ??= setTimeout(() => void flush(), options.delayMs);
    },
    flush,
  };
}
