import { describe, expect, it } from "vitest";
import { alignedWait, runLoop } from "./poll-loop.ts";

/** A clock that only moves when the loop sleeps or a round "works", recording each sleep. */
function steppedClock() {
  let t = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    work: (ms: number) => {
      t += ms;
    },
    clock: {
      now: () => t,
      sleep: async (ms: number) => {
        sleeps.push(ms);
        t += ms;
      },
    },
  };
}

async function rounds(periodic: boolean) {
  const stepped = steppedClock();
  const stop = new AbortController();
  const starts: number[] = [];
  await runLoop({
    clock: stepped.clock,
    signal: stop.signal,
    periodic,
    onFailure: () => {},
    run: async () => {
      starts.push(stepped.clock.now());
      stepped.work(2_000);
      if (starts.length === 3) stop.abort();
      return 60_000;
    },
  });
  return { starts, sleeps: stepped.sleeps };
}

describe("poll loop", () => {
  it("keeps a pollRate period from round start to round start, however long a round takes", async () => {
    const { starts } = await rounds(true);
    expect(starts).toEqual([0, 60_000, 120_000]);
  });

  it("waits the returned time after the round when the wait is until a moment", async () => {
    const { starts } = await rounds(false);
    expect(starts).toEqual([0, 62_000, 124_000]);
  });

  it("backs off after failures, yet never beyond the period the utility last gave", async () => {
    const stepped = steppedClock();
    const stop = new AbortController();
    let round = 0;
    await runLoop({
      clock: stepped.clock,
      signal: stop.signal,
      periodic: true,
      retryMs: 5_000,
      onFailure: () => {},
      run: async () => {
        round++;
        if (round === 10) stop.abort();
        if (round === 1) return 60_000;
        throw new Error("utility unreachable");
      },
    });
    expect(stepped.sleeps).toEqual([60_000, 5_000, 10_000, 20_000, 40_000, 60_000, 60_000, 60_000, 60_000]);
  });

  it("backs off up to its bound when no period is known yet, and for waits until a moment", async () => {
    const stepped = steppedClock();
    const stop = new AbortController();
    let round = 0;
    await runLoop({
      clock: stepped.clock,
      signal: stop.signal,
      periodic: false,
      retryMs: 100_000,
      maxRetryMs: 300_000,
      onFailure: () => {},
      run: async () => {
        round++;
        if (round === 5) stop.abort();
        if (round === 1) return 1_000;
        throw new Error("utility unreachable");
      },
    });
    expect(stepped.sleeps).toEqual([1_000, 100_000, 200_000, 300_000]);
  });

  it("bounds the retries of a loop that never succeeded by the period it was given", async () => {
    const stepped = steppedClock();
    const stop = new AbortController();
    let round = 0;
    await runLoop({
      clock: stepped.clock,
      signal: stop.signal,
      periodic: true,
      retryMs: 50_000,
      periodMs: 60_000,
      onFailure: () => {},
      run: async () => {
        if (++round === 4) stop.abort();
        throw new Error("utility unreachable");
      },
    });
    expect(stepped.sleeps).toEqual([50_000, 60_000, 60_000]);
  });
});

describe("aligned waits", () => {
  it("ends a wait on the next whole multiple, never earlier than asked", () => {
    expect(alignedWait(10_250, 60_000, 1_000)).toBe(60_750);
    expect(alignedWait(10_000, 60_000, 1_000)).toBe(60_000);
    expect(alignedWait(10_250, 0, 1_000)).toBe(750);
    expect(alignedWait(10_250, 60_000, undefined)).toBe(60_000);
  });

  it("lets loops started at different moments of a second wake together, each keeping its period", async () => {
    const wakes: number[][] = [];
    for (const offset of [130, 610, 990]) {
      let t = offset;
      const starts: number[] = [];
      const stop = new AbortController();
      await runLoop({
        clock: {
          now: () => t,
          sleep: async (ms) => {
            t += ms;
          },
        },
        signal: stop.signal,
        periodic: true,
        alignMs: 1_000,
        onFailure: () => {},
        run: async () => {
          starts.push(t);
          t += 40; // the round's own work
          if (starts.length === 3) stop.abort();
          return 60_000;
        },
      });
      wakes.push(starts.slice(1));
    }
    expect(wakes).toEqual([
      [61_000, 121_000],
      [61_000, 121_000],
      [61_000, 121_000],
    ]);
  });
});
