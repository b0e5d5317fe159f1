/** The logging the background services need (a pino logger fits). */
export interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Logs a repeating problem at most once per interval and key (e.g. per device and reason), with
 * how many were suppressed since, so a misbehaving device cannot flood the log.
 */
export function createThrottledLog(log: Log, intervalMs: number) {
  const last = new Map<string, { at: number; suppressed: number }>();
  return {
    warn(key: string, obj: Record<string, unknown>, msg: string) {
      const now = Date.now();
      const seen = last.get(key);
      if (seen && now - seen.at < intervalMs) {
        seen.suppressed++;
        return;
      }
      log.warn(seen?.suppressed ? { ...obj, suppressed: seen.suppressed } : obj, msg);
      last.set(key, { at: now, suppressed: 0 });
      // Forget keys not seen for a while so the map does not grow with every device ever heard.
      if (last.size > 10_000) for (const [k, v] of last) if (now - v.at > intervalMs) last.delete(k);
    },
  };
}
