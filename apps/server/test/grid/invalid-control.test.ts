import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitUntil } from "../helpers/reminders.ts";
import { type GridWorld, NMIS, startGridWorld } from "./grid-world.ts";

// Issue 20's refusals: an event no site can follow as said (here a negative export limit) is
// answered invalid (253) instead of received, gets nothing more, and never becomes the site's
// control; a valid event of the same program beside it runs as usual.
describe("grid client: an invalid control", () => {
  let world: GridWorld;
  let invalidMrid: string;
  let validMrid: string;
  beforeAll(async () => {
    world = await startGridWorld({ factor: 60, sites: [{ sn: "INVALSITE1", nmi: NMIS[0] }] });
    const program = world.sim.control.createProgram({ primacy: 1 });
    const now = world.sim.control.now();
    invalidMrid = world.sim.control.createControl({
      programId: program.id,
      start: now + 30,
      duration: 120,
      base: { opModExpLimW: { value: -5, multiplier: 3 } },
    }).mRID;
    validMrid = world.sim.control.createControl({
      programId: program.id,
      start: now + 60,
      duration: 60,
      base: { opModExpLimW: { value: 2, multiplier: 3 } },
    }).mRID;
    await waitUntil(() => statuses(validMrid).includes(3), 30_000, "the valid event's completion");
  }, 60_000);
  afterAll(() => world?.close());

  const statuses = (mrid: string) => world.sim.control.statusesOf(mrid);

  it("answers the invalid event invalid, once, and nothing else", () => {
    expect(statuses(invalidMrid)).toEqual([253]);
  });

  it("never puts the invalid event in force, while the valid one runs", () => {
    expect(world.effective.some((e) => e.active?.source.mrid === invalidMrid)).toBe(false);
    expect(world.effective.some((e) => e.active?.source.mrid === validMrid)).toBe(true);
    expect(statuses(validMrid)).toEqual([1, 2, 3]);
  });
});
