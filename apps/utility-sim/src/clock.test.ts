import { describe, expect, it } from "vitest";
import { compressedClock, epochSeconds } from "./clock.ts";

describe("compressed clock", () => {
  it("runs factor times faster than the real clock from its start", () => {
    let real = 1_000_000;
    const clock = compressedClock({ factor: 60, startAt: 1_764_230_400_000, realNow: () => real });
    expect(clock.now()).toBe(1_764_230_400_000);
    real += 1_000;
    expect(clock.now()).toBe(1_764_230_460_000);
    expect(epochSeconds(clock)).toBe(1_764_230_460);
  });

  it("jumps when set and keeps running at its factor from there", () => {
    let real = 0;
    const clock = compressedClock({ factor: 10, realNow: () => real });
    clock.setTime(5_000);
    real += 100;
    expect(clock.now()).toBe(6_000);
  });

  it("waits server time divided by the factor, and stops waiting when aborted", async () => {
    const clock = compressedClock({ factor: 1_000 });
    const started = Date.now();
    await clock.sleep(50_000);
    expect(Date.now() - started).toBeLessThan(5_000);
    const abort = new AbortController();
    const waiting = clock.sleep(3_600_000_000, abort.signal);
    abort.abort(new Error("stopped"));
    await expect(waiting).rejects.toThrow("stopped");
  });

  it("refuses a factor that is not a positive number", () => {
    expect(() => compressedClock({ factor: 0 })).toThrow(RangeError);
    expect(() => compressedClock({ factor: Number.NaN })).toThrow(RangeError);
  });
});
