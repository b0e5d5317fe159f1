import type { ActiveControl } from "@ess/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitUntil } from "../helpers/reminders.ts";
import { type GridWorld, NMIS, startGridWorld } from "./grid-world.ts";

// CSIP-AUS ALL-23 / ALL-30: the utility answers every request with HTTP 500 from just after the
// console received an event; the console, even restarted in the middle of the outage, starts the
// event on time from what it stored and falls back to the default when the event ends.
describe("grid client: the control schedule through a utility outage and a restart", () => {
  let world: GridWorld;
  let eventMrid: string;
  let eventStart: number;
  let eventEnd: number;
  const exportKw = (a: ActiveControl | null | undefined) => {
    const limit = a?.control.opModExpLimW;
    return limit ? limit.value * 10 ** (limit.multiplier - 3) : undefined;
  };
  const site = async () =>
    (
      await world.db.query<{
        control: ActiveControl["control"] | null;
        source: ActiveControl["source"] | null;
        since: Date | null;
        until: Date | null;
      }>("SELECT active_control AS control, active_source AS source, active_since AS since, active_until AS until FROM grid_site")
    ).rows[0];

  beforeAll(async () => {
    world = await startGridWorld({ factor: 60, sites: [{ sn: "SCHEDSITE1", nmi: NMIS[0] }] });
    const program = world.sim.control.createProgram({ primacy: 1 });
    world.sim.control.setDefaultControl(program.id, {
      DERControlBase: { opModExpLimW: { value: 15, multiplier: 2 }, opModImpLimW: { value: 3, multiplier: 3 } },
    });
    const now = world.sim.control.now();
    const event = world.sim.control.createControl({
      programId: program.id,
      start: now + 240,
      duration: 300,
      base: { opModExpLimW: { value: 2, multiplier: 3 } },
    });
    eventMrid = event.mRID;
    eventStart = event.start * 1000;
    eventEnd = (event.start + event.duration) * 1000;
    await waitUntil(() => world.sim.control.responses().some((r) => r.response.subject === eventMrid), 15_000, "event received");
    world.sim.control.setOutage(true);
  });
  afterAll(() => world?.close());

  it("applies the default before the event, stored on the site", async () => {
    // A new site has nothing in force until its programs are first read.
    await waitUntil(() => world.effective.some((e) => e.active), 10_000, "first effective control");
    expect(world.effective[0]?.active).toBeNull();
    const first = world.effective.find((e) => e.active);
    expect(first?.active?.source.kind).toBe("default");
    expect(exportKw(first?.active)).toBe(1.5);
    const stored = await site();
    expect(stored?.source?.kind).toBe("default");
    expect(stored?.until?.getTime()).toBeGreaterThan(world.sim.control.now() * 1000);
  });

  it("starts the event on time though the utility answers nothing, over the default's other limits", async () => {
    await waitUntil(() => world.effective.some((e) => e.active?.source.mrid === eventMrid), 15_000, "the event in force");
    const started = world.effective.find((e) => e.active?.source.mrid === eventMrid);
    expect(started?.at).toBeGreaterThanOrEqual(eventStart);
    expect(started?.at).toBeLessThan(eventStart + 60_000);
    expect(exportKw(started?.active)).toBe(2);
    // The default's import limit still applies: the event is silent on it.
    expect(started?.active?.control.opModImpLimW).toEqual({ value: 3, multiplier: 3 });
    const stored = await site();
    expect(stored?.source).toMatchObject({ kind: "event", mrid: eventMrid, primacy: 1 });
    expect(stored?.until?.getTime()).toBe(eventEnd);
    expect(
      world.sim.control
        .requests()
        .slice(-5)
        .every((r) => r.status === 500),
    ).toBe(true);
  });

  it("restarted during the outage, carries on with the event and returns to the default when it ends", async () => {
    await world.stopClient();
    const since = (await site())?.since;
    expect(since?.getTime()).toBeGreaterThanOrEqual(eventStart);
    const before = world.effective.length;
    world.startClient();
    await waitUntil(() => world.effective.length > before, 10_000, "the restarted client's first answer");
    expect(world.effective[before]?.active?.source.mrid).toBe(eventMrid);
    // The same event carries on: in force since it started, not since the restart.
    expect((await site())?.since).toEqual(since);
    await waitUntil(
      () => world.effective.slice(before).some((e) => e.active?.source.kind === "default"),
      15_000,
      "the default after the event",
    );
    const back = world.effective.slice(before).find((e) => e.active?.source.kind === "default");
    expect(back?.at).toBeGreaterThanOrEqual(eventEnd);
    expect(back?.at).toBeLessThan(eventEnd + 60_000);
    expect(exportKw(back?.active)).toBe(1.5);
    const stored = await site();
    expect(stored?.source?.kind).toBe("default");
    expect(stored?.until).toBeNull();
    world.sim.control.setOutage(false);
  });
});
