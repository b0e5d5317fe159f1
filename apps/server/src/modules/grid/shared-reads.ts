/**
 * Reads of one resource that serve every site asking for it within a while: the aggregator's
 * MirrorUsagePointList holds every site's mirrors, so a site that reads it at its post boundary
 * takes the copy another site read moments before instead of reading every page again. A read in
 * flight is joined; a failed read is not kept.
 */
export interface SharedReads {
  read<T>(key: string, maxAgeMs: number, load: () => Promise<T>): Promise<{ value: T; readAt: number }>;
  forget(key: string): void;
}

export function createSharedReads(now: () => number): SharedReads {
  const kept = new Map<string, { readAt: number; value: Promise<unknown> }>();
  return {
    read<T>(key: string, maxAgeMs: number, load: () => Promise<T>) {
      const hit = kept.get(key);
      if (hit && now() - hit.readAt < maxAgeMs) return hit.value.then((value) => ({ value: value as T, readAt: hit.readAt }));
      const readAt = now();
      const value = load();
      kept.set(key, { readAt, value });
      value.catch(() => {
        if (kept.get(key)?.value === value) kept.delete(key);
      });
      return value.then((v) => ({ value: v, readAt }));
    },
    forget(key) {
      kept.delete(key);
    },
  };
}
