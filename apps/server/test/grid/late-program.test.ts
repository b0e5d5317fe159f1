import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitUntil } from "../helpers/reminders.ts";
import { type GridWorld, NMIS, startGridWorld } from "./grid-world.ts";

// A utility that assigns a site its first program only after the site registered (as the demo
// utility does): the program is read at the assignments' next read, not a default period later.
describe("grid client: a program assigned after registration", () => {
  let world: GridWorld;
  beforeAll(async () => {
    world = await startGridWorld({
      factor: 10,
      sites: [{ sn: "LATEPROG1", nmi: NMIS[0] }],
      rates: { fsaListPoll: 10, derpListPoll: 60 },
    });
    await waitUntil(
      () => world.sim.control.requests({ method: "GET" }).some((r) => r.path.endsWith("/fsa")),
      15_000,
      "the first read of the assignments",
    );
  });
  afterAll(() => world?.close());

  it("reads the new program's list within an assignments period of its creation", async () => {
    const created = world.sim.control.now() * 1000;
    const program = world.sim.control.createProgram({ primacy: 0 });
    const programRead = () =>
      world.sim.control.requests({ method: "GET" }).find((r) => r.path.endsWith("/derp") && r.at >= created);
    await waitUntil(() => programRead() !== undefined, 20_000, "the program list read");
    // The assignments' period is 10 s of server time; the default program period would be 60 s.
    expect((programRead()?.at ?? 0) - created).toBeLessThan(40_000);
    expect(program.id).toBeGreaterThan(0);
  });
});
