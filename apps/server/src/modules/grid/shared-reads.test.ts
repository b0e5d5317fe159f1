import { describe, expect, it } from "vitest";
import { createSharedReads } from "./shared-reads.ts";

describe("shared reads", () => {
  it("serves one read to every asker within its age, joins a read in flight, and reads again once it is older", async () => {
    let now = 0;
    let loads = 0;
    const reads = createSharedReads(() => now);
    const load = async () => ++loads;
    const [a, b] = await Promise.all([reads.read("/mup", 1000, load), reads.read("/mup", 1000, load)]);
    expect([a.value, b.value, loads]).toEqual([1, 1, 1]);
    now = 999;
    expect((await reads.read("/mup", 1000, load)).value).toBe(1);
    now = 1000;
    const again = await reads.read("/mup", 1000, load);
    expect([again.value, again.readAt]).toEqual([2, 1000]);
  });

  it("does not keep a failed read", async () => {
    const reads = createSharedReads(() => 0);
    await expect(reads.read("/mup", 1000, () => Promise.reject(new Error("500")))).rejects.toThrow("500");
    expect((await reads.read("/mup", 1000, async () => "listed")).value).toBe("listed");
  });
});
