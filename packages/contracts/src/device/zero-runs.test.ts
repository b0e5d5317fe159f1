import { describe, expect, it } from "vitest";
import { packZeroRuns, unpackZeroRuns } from "./zero-runs.ts";

describe("zero-run packing", () => {
  it("gives back exactly the words it was given", () => {
    const cases = [
      [],
      [0, 0],
      [0, 1],
      [1, 0, 0, 0, 0, 0, 0, 2],
      [0, 0, 0, 0, 7, 7, 0, 0],
      Array.from({ length: 400 }, (_, i) => (i % 37 === 0 ? 9 : 0)),
    ];
    for (const words of cases) {
      const bytes = Uint8Array.from(words);
      expect([...unpackZeroRuns(packZeroRuns(bytes))]).toEqual(words);
    }
  });

  it("shrinks mostly-zero data and bounds the growth of data without runs", () => {
    const sparse = new Uint8Array(1600);
    sparse[100] = 5;
    expect(packZeroRuns(sparse).length).toBeLessThan(20);
    const alternating = Uint8Array.from(Array.from({ length: 64 }, (_, i) => (i % 4 < 2 ? 1 : 0)));
    expect(packZeroRuns(alternating).length).toBeLessThanOrEqual(alternating.length * 2 + 4);
    expect([...unpackZeroRuns(packZeroRuns(alternating))]).toEqual([...alternating]);
  });
});
