/**
 * The utility server's clock. Conformance procedures wait minutes between steps and clients poll
 * every 60 s; to run one in seconds the server's clock runs `factor` times faster than real time.
 * Rates on the wire keep their real values (a 60 s pollRate stays 60): a client that takes the same
 * clock (or the same factor) then polls N times faster in real time, and every time the server
 * writes (Time, event starts, request log) is in the compressed time.
 */
export interface SimClock {
  /** Milliseconds since 1970-01-01 UTC on the server's (possibly compressed) clock. */
  now(): number;
  /** How many server seconds pass per real second. */
  readonly factor: number;
  /** Waits `ms` of server time (ms / factor of real time). Rejects when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Moves the clock to `ms` (server time); waits already running keep their real deadline. */
  setTime(ms: number): void;
}

export interface CompressedClockOptions {
  /** Server seconds per real second (default 1: real time). */
  factor?: number;
  /** The server time at creation (default the real time). */
  startAt?: number;
  /** Real time source, for tests. */
  realNow?: () => number;
}

function abortableTimeout(realMs: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      },
      Math.max(0, realMs),
    );
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** A clock that runs `factor` times faster than the real one. */
export function compressedClock(options: CompressedClockOptions = {}): SimClock {
  const factor = options.factor ?? 1;
  if (!(factor > 0) || !Number.isFinite(factor)) throw new RangeError("The time compression factor is a positive number");
  const realNow = options.realNow ?? Date.now;
  let realOrigin = realNow();
  let simOrigin = options.startAt ?? realOrigin;
  return {
    factor,
    now: () => simOrigin + (realNow() - realOrigin) * factor,
    sleep: (ms, signal) => abortableTimeout(ms / factor, signal),
    setTime(ms) {
      realOrigin = realNow();
      simOrigin = ms;
    },
  };
}

/** Whole seconds (IEEE 2030.5 TimeType) of a clock. */
export function epochSeconds(clock: SimClock): number {
  return Math.floor(clock.now() / 1000);
}
