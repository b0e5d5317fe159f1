import { describe, expect, it } from "vitest";
import { createBatchedLoad } from "./batched-loads.ts";

describe("batched loads", () => {
  it("answers the keys asked together from one load, each with its own value or the missing one", async () => {
    const batches: number[][] = [];
    const load = createBatchedLoad<number, string>(
      async (keys) => {
        batches.push(keys);
        return new Map(keys.filter((k) => k !== 3).map((k) => [k, `device ${k}`]));
      },
      { windowMs: 5, missing: (k) => `none for ${k}` },
    );
    const answers = await Promise.all([load(1), load(2), load(1), load(3)]);
    expect(answers).toEqual(["device 1", "device 2", "device 1", "none for 3"]);
    expect(batches).toEqual([[1, 2, 3]]);
    expect(await load(4)).toBe("device 4");
    expect(batches).toHaveLength(2);
  });

  it("loads at once when a batch is full, and fails every ask of a failed batch", async () => {
    const batches: number[][] = [];
    const load = createBatchedLoad<number, number>(
      async (keys) => {
        batches.push(keys);
        if (keys.includes(9)) throw new Error("database away");
        return new Map(keys.map((k) => [k, k * 10]));
      },
      { windowMs: 60_000, maxBatch: 2, missing: () => 0 },
    );
    expect(await Promise.all([load(1), load(2)])).toEqual([10, 20]);
    const failed = Promise.all([load(8), load(9)]);
    await expect(failed).rejects.toThrow("database away");
    expect(batches).toEqual([
      [1, 2],
      [8, 9],
    ]);
  });
});
