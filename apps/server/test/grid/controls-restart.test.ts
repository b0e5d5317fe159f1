import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitUntil } from "../helpers/reminders.ts";
import { type GridWorld, NMIS, startGridWorld } from "./grid-world.ts";

// A console stopped while an event it acknowledged was pending, and started again after the event
// ended: the utility no longer lists the event, yet it must still be answered started and completed.
describe("grid client: an event that ran while the console was stopped", () => {
  let world: GridWorld;
  let mrid: string;
  beforeAll(async () => {
    world = await startGridWorld({ factor: 60, sites: [{ sn: "RESTART01", nmi: NMIS[0] }] });
    const program = world.sim.control.createProgram({ primacy: 0 });
    const now = world.sim.control.now();
    const control = world.sim.control.createControl({
      programId: program.id,
      start: now + 120,
      duration: 60,
      base: { opModExpLimW: { value: 0, multiplier: 0 } },
    });
    mrid = control.mRID;
    const statuses = () => world.sim.control.responses().filter((r) => r.response.subject === mrid).length;
    await waitUntil(() => statuses() >= 1, 15_000, "the event received");
    await world.stopClient();
    // Past the event's end on the utility's clock: it is gone from the utility's list.
    await waitUntil(() => world.sim.control.now() > control.start + control.duration + 30, 15_000, "the event over");
    world.startClient();
    await waitUntil(() => statuses() >= 3, 15_000, "the event answered after the start");
  });
  afterAll(() => world?.close());

  it("answers started then completed once each, from what it had stored, though the utility lists it no more", async () => {
    const sent = world.sim.control.responses().filter((r) => r.response.subject === mrid);
    expect(sent.map((r) => r.response.status)).toEqual([1, 2, 3]);
    // Another program poll period later nothing more has gone out for it.
    const polls = world.sim.control.requests({ method: "GET" }).length;
    await waitUntil(() => world.sim.control.requests({ method: "GET" }).length > polls + 5, 10_000, "more polls");
    expect(world.sim.control.responses().filter((r) => r.response.subject === mrid)).toHaveLength(3);
    const { rows } = await world.db.query<{ status: number }>(
      "SELECT response_status AS status FROM grid_command WHERE mrid = $1",
      [mrid],
    );
    expect(rows).toEqual([{ status: 3 }]);
  });
});
