import { GRID_REGISTRATION_STATES } from "@ess/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitUntil } from "../helpers/reminders.ts";
import { type GridWorld, NMIS, startGridWorld } from "./grid-world.ts";

// A console whose event loop stalled past the grid job's lease carries on while another console
// has taken the lease over (a higher token). The stale client must not store, apply or answer the
// utility's next event — the current holder does, once and only once.
describe("grid client: a lease taken over by another console", () => {
  let world: GridWorld;
  let mrid: string;
  let programId = 0;
  const warnings: string[] = [];
  const log = { info() {}, error() {}, warn: (_: object, message: string) => void warnings.push(message) };
  const site = "FENCESITE";
  const statuses = () => world.sim.control.statusesOf(mrid, world.siteLfdi(site));
  const stored = async () => (await world.db.query("SELECT 1 FROM grid_command WHERE mrid = $1", [mrid])).rows.length > 0;
  const told = () => world.effective.filter((e) => e.active?.source.mrid === mrid);

  beforeAll(async () => {
    world = await startGridWorld({
      factor: 60,
      sites: [{ sn: site, nmi: NMIS[0] }],
      // This console took the lease first (token 1).
      beforeClient: async (sim, _ids, db) => {
        await db.query(
          "INSERT INTO job_lease (job, holder, token, expires_at) VALUES ('grid', 'a', 1, now() + interval '1 hour')",
        );
        programId = sim.control.createProgram({ primacy: 1 }).id;
        sim.control.setDefaultControl(programId, { DERControlBase: { opModExpLimW: { value: 5, multiplier: 3 } } });
      },
      client: { fence: { job: "grid", token: 1 }, log },
    });
    // Working under its lease: registered, and the program's default in force at the site.
    const deviceId = world.devices.get(site);
    await waitUntil(() => world.effective.some((e) => e.deviceId === deviceId && e.active !== null), 15_000, "the default");
    const { rows } = await world.db.query<{ state: number }>("SELECT registered_state AS state FROM grid_site");
    expect(rows[0]?.state).toBe(GRID_REGISTRATION_STATES.registered);

    // Its event loop stalls past the ttl; another console takes the lease over, as its ACQUIRE does.
    await world.db.query("UPDATE job_lease SET holder = 'b', token = token + 1 WHERE job = 'grid'");
    mrid = world.sim.control.createControl({
      programId,
      start: world.sim.control.now() + 60,
      duration: 3600,
      base: { opModExpLimW: { value: 1, multiplier: 3 } },
    }).mRID;
    // Five program polls of the stale client, and the event's start.
    await world.clock.sleep(300_000);
  }, 60_000);
  afterAll(() => world?.close());

  it("stores, applies and answers nothing of the event once the lease is another's, and says so once", async () => {
    expect(await stored()).toBe(false);
    expect(statuses()).toEqual([]);
    expect(told()).toEqual([]);
    expect(warnings.filter((w) => /lease/.test(w))).toHaveLength(1);
    // Nothing more is tried: the client stopped itself quietly.
    expect(warnings).toHaveLength(1);
  });

  it("leaves the event to the console holding the lease now, which stores, applies and answers it", async () => {
    await world.stopClient();
    world.startClient({ fence: { job: "grid", token: 2 }, log });
    await waitUntil(() => statuses().includes(2), 15_000, "the event answered started");
    expect(statuses()).toEqual([1, 2]);
    expect(await stored()).toBe(true);
    expect(told()).toHaveLength(1);
    expect(warnings).toHaveLength(1);
  });
});
