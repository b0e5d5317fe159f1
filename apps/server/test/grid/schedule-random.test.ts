import { randomisedSpan } from "@ess/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitUntil } from "../helpers/reminders.ts";
import { type GridWorld, NMIS, startGridWorld } from "./grid-world.ts";

// CSIP-AUS ALL-22: an event with randomizeStart/randomizeDuration starts and ends at the site's own
// randomised times, drawn from its LFDI; the "started" response goes out at that start, not before.
describe("grid client: a randomised event", () => {
  let world: GridWorld;
  let mrid: string;
  let span: { start: number; end: number };
  beforeAll(async () => {
    world = await startGridWorld({ factor: 60, sites: [{ sn: "RANDSITE1", nmi: NMIS[0] }] });
    const program = world.sim.control.createProgram({ primacy: 0 });
    const now = world.sim.control.now();
    const event = world.sim.control.createControl({
      programId: program.id,
      start: now + 120,
      duration: 120,
      randomizeStart: 300,
      randomizeDuration: 120,
      base: { opModExpLimW: { value: 0, multiplier: 0 } },
    });
    mrid = event.mRID;
    span = randomisedSpan(world.siteLfdi("RANDSITE1"), {
      mrid,
      start: event.start * 1000,
      durationS: event.duration,
      randomizeStart: 300,
      randomizeDuration: 120,
    });
    await waitUntil(() => world.effective.some((e) => e.active?.source.kind === "event"), 20_000, "the event in force");
    await waitUntil(
      () => world.sim.control.responses().filter((r) => r.response.subject === mrid).length >= 3,
      20_000,
      "completed",
    );
    // The schedule's own timer ends the event; the completed response has its own timer, so the
    // schedule's end can follow it by a moment.
    await waitUntil(() => world.effective.at(-1)?.active?.source.mrid !== mrid, 10_000, "the event's end in the schedule");
  });
  afterAll(() => world?.close());

  it("is in force from the site's randomised start to its randomised end", () => {
    const on = world.effective.find((e) => e.active?.source.mrid === mrid);
    expect(on?.at).toBeGreaterThanOrEqual(span.start);
    expect(on?.at).toBeLessThan(span.start + 30_000);
    const off = world.effective.find((e) => e.at > (on?.at ?? 0) && e.active?.source.mrid !== mrid);
    expect(off?.at).toBeGreaterThanOrEqual(span.end);
    expect(off?.at).toBeLessThan(span.end + 30_000);
  });

  it("answers started at that start and completed at that end", () => {
    const sent = world.sim.control.responses().filter((r) => r.response.subject === mrid);
    expect(sent.map((r) => r.response.status)).toEqual([1, 2, 3]);
    expect(sent[1]?.response.createdDateTime).toBeGreaterThanOrEqual(Math.floor(span.start / 1000));
    expect(sent[2]?.response.createdDateTime).toBeGreaterThanOrEqual(Math.floor(span.end / 1000));
  });
});
