import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitUntil } from "../helpers/reminders.ts";
import { type GridWorld, NMIS, startGridWorld } from "./grid-world.ts";

// CSIP-AUS P-02: the utility withdraws a function set assignment from the site. Its program's
// event and default no longer count for the schedule, and the event gets no more responses.
describe("grid client: a program removed from a site", () => {
  let world: GridWorld;
  let urgentMrid: string;
  let urgentEnd: number;
  let baseDefaultMrid: string;
  const responsesTo = (mrid: string) => world.sim.control.statusesOf(mrid);

  beforeAll(async () => {
    world = await startGridWorld({
      factor: 60,
      sites: [{ sn: "P02SITE01", nmi: NMIS[0] }],
      rates: { fsaListPoll: 60, derpListPoll: 60, edevListPoll: 60 },
    });
    const base = world.sim.control.createProgram({ primacy: 5, fsaId: 1 });
    world.sim.control.setDefaultControl(base.id, { DERControlBase: { opModExpLimW: { value: 5, multiplier: 3 } } });
    const urgent = world.sim.control.createProgram({ primacy: 0, fsaId: 2 });
    world.sim.control.setDefaultControl(urgent.id, { DERControlBase: { opModExpLimW: { value: 0, multiplier: 0 } } });
    const now = world.sim.control.now();
    const event = world.sim.control.createControl({
      programId: urgent.id,
      start: now + 30,
      duration: 480,
      base: { opModExpLimW: { value: 1, multiplier: 3 } },
    });
    urgentMrid = event.mRID;
    urgentEnd = (event.start + event.duration) * 1000;
    await waitUntil(() => world.effective.some((e) => e.active?.source.mrid === urgentMrid), 15_000, "the urgent event in force");
    await waitUntil(() => responsesTo(urgentMrid).includes(2), 10_000, "the urgent event started");
    baseDefaultMrid = world.sim.control.programs().find((p) => p.id === base.id)?.defaultControl?.mRID as string;
    const device = world.sim.control.endDevices().find((d) => d.lfdi === world.siteLfdi("P02SITE01"));
    world.sim.control.removeFunctionSetAssignment(device?.id as number, 2);
  });
  afterAll(() => world?.close());

  it("falls back to the remaining program's default, though the removed program's event still runs at the utility", async () => {
    await waitUntil(
      () => world.effective.at(-1)?.active?.source.mrid === baseDefaultMrid,
      15_000,
      "the remaining program's default",
    );
    const last = world.effective.at(-1);
    expect(last?.active?.source).toMatchObject({ kind: "default", primacy: 5 });
    expect(last?.active?.control.opModExpLimW).toEqual({ value: 5, multiplier: 3 });
    expect(last?.at).toBeLessThan(urgentEnd);
    const { rows } = await world.db.query<{ mrid: string; retired: boolean; applied: boolean }>(
      "SELECT mrid, retired_at IS NOT NULL AS retired, applied_at IS NOT NULL AS applied FROM grid_command ORDER BY id",
    );
    expect(rows.find((r) => r.mrid === urgentMrid)?.retired).toBe(true);
    expect(rows.find((r) => r.mrid === baseDefaultMrid)?.retired).toBe(false);
    // The default in force counts among the site's applied controls (the centre's mode counts).
    expect(rows.find((r) => r.mrid === baseDefaultMrid)?.applied).toBe(true);
  });

  it("sends the removed program's event no more responses, not even completed at its end", async () => {
    await waitUntil(() => world.sim.control.now() * 1000 > urgentEnd + 120_000, 20_000, "past the event's end");
    expect(responsesTo(urgentMrid)).toEqual([1, 2]);
    expect(world.effective.at(-1)?.active?.source.mrid).toBe(baseDefaultMrid);
  });

  it("has nothing in force once the device no longer takes part", async () => {
    await world.db.query("UPDATE device SET deleted_at = now() WHERE id = $1", [world.devices.get("P02SITE01")]);
    await waitUntil(() => world.effective.at(-1)?.active === null, 15_000, "the site released");
    await waitUntil(
      async () =>
        (await world.db.query("SELECT 1 FROM grid_site WHERE active_control IS NULL AND active_source IS NULL")).rows.length ===
        1,
      5_000,
      "stored as none",
    );
  });
});
