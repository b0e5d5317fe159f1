import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SELF_CHECK_READING as R, SELF_CHECK_ITEMS, selfCheckProgress, threePhaseSelfCheckItems } from "./self-check-items.ts";

/** The readings a device sends while it tests items 1…`upTo` (each item `repeats` times), then one with `endItem`. */
function run(upTo: number, repeats: number, endItem: number | null) {
  const readings: Record<string, number>[] = [];
  for (let item = 1; item <= upTo; item++) {
    for (let k = 0; k < repeats; k++) {
      readings.push({
        [R.item]: item,
        [R.setThreshold]: 250 + item,
        [R.setTimeMs]: 100 * item,
        [R.actualTimeMs]: 100 * item + k,
      });
    }
  }
  if (endItem !== null) readings.push({ [R.item]: endItem });
  return readings;
}

describe("three-phase self-check items", () => {
  it("a finished check: every item passed with the values of its last reading", () => {
    const items = threePhaseSelfCheckItems(run(8, 2, 0), 3);
    expect(items.map((i) => i.outcome)).toEqual(SELF_CHECK_ITEMS.map(() => "passed"));
    expect(items[2]).toMatchObject({ item: 3, setThreshold: 253, setTimeMs: 300, actualTimeMs: 301 });
  });

  it("a failed check stops at the failing item: before it passed, it failed, after it not run", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 3 }), (at, repeats) => {
        const outcomes = threePhaseSelfCheckItems(run(at, repeats, null), 2).map((i) => i.outcome);
        expect(outcomes).toEqual(SELF_CHECK_ITEMS.map((item) => (item < at ? "passed" : item === at ? "failed" : "notRun")));
      }),
    );
  });

  it("a running check: items behind passed, the current one running, the rest pending; progress counts them", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), (at) => {
        const items = threePhaseSelfCheckItems(run(at, 1, null), 1);
        expect(items.map((i) => i.outcome)).toEqual(
          SELF_CHECK_ITEMS.map((item) => (item < at ? "passed" : item === at ? "running" : "pending")),
        );
        expect(selfCheckProgress(items)).toEqual({ done: at - 1, total: 8 });
      }),
    );
  });

  it("an item no reading showed is said so, never passed", () => {
    const readings = run(8, 1, 0).filter((r) => r[R.item] !== 4);
    const items = threePhaseSelfCheckItems(readings, 3);
    expect(items[3]).toMatchObject({ item: 4, outcome: "notReported", setThreshold: null });
    expect(threePhaseSelfCheckItems([], 3).every((i) => i.outcome === "notReported")).toBe(true);
  });
});
