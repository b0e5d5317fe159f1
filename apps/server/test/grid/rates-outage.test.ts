import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitUntil } from "../helpers/reminders.ts";
import { type GridWorld, NMIS, startGridWorld } from "./grid-world.ts";

// Procedures ALL-19/20 (follow pollRate changes) and ALL-23 (HTTP 500 outage, then carry on).
describe("grid client: poll rates and outages", () => {
  let world: GridWorld;
  beforeAll(async () => {
    world = await startGridWorld({ factor: 60, sites: [{ sn: "RATESITE1", nmi: NMIS[0] }], rates: { derpListPoll: 60 } });
    world.sim.control.createProgram({ primacy: 0 });
    await waitUntil(() => world.sim.control.requests({ path: "/edev/*/fsa/*/derp" }).length > 0, 15_000, "first program poll");
  });
  afterAll(() => world?.close());

  /** Program list polls during `serverSeconds` of server time from now. */
  async function pollsDuring(serverSeconds: number): Promise<number> {
    const from = world.sim.control.now() * 1000;
    await new Promise((resolve) => setTimeout(resolve, (serverSeconds * 1000) / world.clock.factor));
    const to = world.sim.control.now() * 1000;
    return world.sim.control.requests({ method: "GET", path: "/edev/*/fsa/*/derp" }).filter((r) => r.at >= from && r.at < to)
      .length;
  }

  it("polls the program list at its pollRate and follows a change", async () => {
    const atSixty = await pollsDuring(360);
    expect(atSixty).toBeGreaterThanOrEqual(4);
    expect(atSixty).toBeLessThanOrEqual(8);
    world.sim.control.setRates({ derpListPoll: 20 });
    // One old period may pass before the new rate is read.
    await pollsDuring(60);
    const atTwenty = await pollsDuring(360);
    expect(atTwenty).toBeGreaterThanOrEqual(14);
    expect(atTwenty).toBeLessThanOrEqual(22);
  });

  it("counts failures during an outage, backs off, and resumes after it", async () => {
    const failures = async () => (await world.metrics.gridFailures.get()).values.reduce((sum, v) => sum + v.value, 0);
    const before = await failures();
    world.sim.control.setOutage(true);
    const outageStart = world.sim.control.requests().length;
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    world.sim.control.setOutage(false);
    const duringOutage = world.sim.control.requests().slice(outageStart);
    expect(duringOutage.every((r) => r.status === 500 || r.status === undefined)).toBe(true);
    expect(await failures()).toBeGreaterThan(before);
    // Backing off: far fewer attempts than one per 20 s over four minutes of server time would be (the loops of one site).
    expect(duringOutage.length).toBeLessThan(60);
    const afterOutage = world.sim.control.requests().length;
    await waitUntil(
      () => world.sim.control.requests({ path: "/edev/*/fsa/*/derp", after: afterOutage }).some((r) => r.status === 200),
      15_000,
      "program polls answered again",
    );
    const requests = (await world.metrics.gridRequests.get()).values;
    expect(requests.some((v) => v.labels.status === "500" && v.value > 0)).toBe(true);
    expect(requests.some((v) => v.labels.status === "200" && v.labels.method === "GET")).toBe(true);
    const { rows } = await world.db.query<{ at: Date | null }>("SELECT last_success_at AS at FROM grid_site");
    expect(rows[0]?.at?.getTime()).toBeGreaterThan(0);
    const gauge = (await world.metrics.gridLastSuccess.get()).values;
    expect(gauge[0]?.value).toBeGreaterThan(0);
  });
});
