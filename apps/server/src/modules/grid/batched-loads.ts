/**
 * Loads asked for one key at a time, made in one statement for many keys: a thousand sites wake on
 * the same minute boundary and each asks for its device's figures; one query for all of them costs
 * the database and the console a fraction of a thousand. Keys asked within `windowMs` of the first
 * go together (at most `maxBatch`); a failed load fails every ask of its batch.
 */
export function createBatchedLoad<K, V>(
  loadMany: (keys: K[]) => Promise<Map<K, V>>,
  options: { windowMs?: number; maxBatch?: number; missing: (key: K) => V },
): (key: K) => Promise<V> {
  const windowMs = options.windowMs ?? 10;
  const maxBatch = options.maxBatch ?? 1000;
  let waiting = new Map<K, { resolve: (v: V) => void; reject: (e: unknown) => void }[]>();
  let timer: NodeJS.Timeout | undefined;

  function run() {
    clearTimeout(timer);
    timer = undefined;
    const batch = waiting;
    waiting = new Map();
    const keys = [...batch.keys()];
    loadMany(keys).then(
      (found) => {
        for (const [key, asks] of batch) {
          const value = found.has(key) ? (found.get(key) as V) : options.missing(key);
          for (const ask of asks) ask.resolve(value);
        }
      },
      (error: unknown) => {
        for (const asks of batch.values()) for (const ask of asks) ask.reject(error);
      },
    );
  }

  return (key) =>
    new Promise<V>((resolve, reject) => {
      const asks = waiting.get(key);
      if (asks) asks.push({ resolve, reject });
      else waiting.set(key, [{ resolve, reject }]);
      if (waiting.size >= maxBatch) run();
      else timer ??= setTimeout(run, windowMs);
    });
}
