import { GRID_REGISTRATION_STATES } from "@ess/domain";
import type { UtilitySim } from "@ess/utility-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeviceTake } from "../../src/modules/grid/event-responses.ts";
import type { GridClientOptions } from "../../src/modules/grid/grid-client.ts";
import { waitUntil } from "../helpers/reminders.ts";
import { type GridWorld, NMIS, startGridWorld } from "./grid-world.ts";

/**
 * A one-site world whose client runs under the grid lease it took first (token 1), as its lease's
 * ACQUIRE does; `prepare` adds the utility's preconditions before the client's first request.
 */
function leasedWorld(
  sn: string,
  nmi: string,
  client: Partial<GridClientOptions> = {},
  prepare?: (sim: UtilitySim) => void,
): Promise<GridWorld> {
  return startGridWorld({
    factor: 60,
    sites: [{ sn, nmi }],
    beforeClient: async (sim, _ids, db) => {
      await db.query("INSERT INTO job_lease (job, holder, token, expires_at) VALUES ('grid', 'a', 1, now() + interval '1 hour')");
      prepare?.(sim);
    },
    client: { fence: { job: "grid", token: 1 }, ...client },
  });
}

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
    world = await leasedWorld(site, NMIS[0], { log }, (sim) => {
      programId = sim.control.createProgram({ primacy: 1 }).id;
      sim.control.setDefaultControl(programId, { DERControlBase: { opModExpLimW: { value: 5, multiplier: 3 } } });
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
    // The answer and the device's write go their own ways: the write may land a moment later.
    await waitUntil(() => told().length > 0, 5_000, "the event in force at the device");
    expect(statuses()).toEqual([1, 2]);
    expect(await stored()).toBe(true);
    expect(told()).toHaveLength(1);
    expect(warnings).toHaveLength(1);
  });
});

// The event reached the stale client before the takeover (stored, answered received); it starts after.
describe("grid client: an event under way when the lease is taken over", () => {
  let world: GridWorld;
  let mrid: string;
  const site = "FENCESITE2";
  beforeAll(async () => {
    world = await leasedWorld(site, NMIS[1]);
    const program = world.sim.control.createProgram({ primacy: 1 });
    const start = world.sim.control.now() + 300;
    mrid = world.sim.control.createControl({
      programId: program.id,
      start,
      duration: 3600,
      base: { opModExpLimW: { value: 1, multiplier: 3 } },
    }).mRID;
    const answered = async () =>
      (await world.db.query("SELECT 1 FROM grid_command WHERE mrid = $1 AND response_status = 1", [mrid])).rows.length > 0;
    await waitUntil(answered, 15_000, "received, stored as answered");
    await world.db.query("UPDATE job_lease SET holder = 'b', token = token + 1 WHERE job = 'grid'");
    // Past the event's start, by two program polls.
    await world.clock.sleep((start - world.sim.control.now() + 120) * 1000);
  }, 60_000);
  afterAll(() => world?.close());

  it("neither starts it at the site nor tells the utility it started", async () => {
    expect(world.sim.control.statusesOf(mrid, world.siteLfdi(site))).toEqual([1]);
    expect(world.effective.filter((e) => e.active?.source.mrid === mrid)).toEqual([]);
    const { rows } = await world.db.query<{ status: number; applied: Date | null }>(
      "SELECT response_status AS status, applied_at AS applied FROM grid_command WHERE mrid = $1",
      [mrid],
    );
    expect(rows).toEqual([{ status: 1, applied: null }]);
  });
});

// The event started under the lease; the device's refusal comes back after the takeover (an offline
// device's queued write refused on its return, say). Nothing the stale client stores comes first.
describe("grid client: a device's take told after the lease is taken over", () => {
  let world: GridWorld;
  let mrid: string;
  const site = "FENCESITE3";
  const tooks: ((take: DeviceTake) => void)[] = [];
  beforeAll(async () => {
    world = await leasedWorld(site, NMIS[2], {
      onEffectiveControl: (_siteId, _deviceId, active, took) => {
        if (active?.source.kind === "event" && took) tooks.push(took);
      },
    });
    const program = world.sim.control.createProgram({ primacy: 1 });
    mrid = world.sim.control.createControl({
      programId: program.id,
      start: world.sim.control.now() + 60,
      duration: 3600,
      base: { opModExpLimW: { value: 1, multiplier: 3 } },
    }).mRID;
    const started = async () =>
      (await world.db.query("SELECT 1 FROM grid_command WHERE mrid = $1 AND response_status = 2", [mrid])).rows.length > 0;
    await waitUntil(started, 15_000, "started, stored as answered");
    await waitUntil(() => tooks.length > 0, 5_000, "the event handed to the device");
    await world.db.query("UPDATE job_lease SET holder = 'b', token = token + 1 WHERE job = 'grid'");
    for (const took of tooks) took({ outcome: "refused", notApplicable: [] });
    await world.clock.sleep(120_000);
  }, 60_000);
  afterAll(() => world?.close());

  it("does not tell the utility the site opted out: that answer is the current holder's", async () => {
    expect(world.sim.control.statusesOf(mrid, world.siteLfdi(site))).toEqual([1, 2]);
    const { rows } = await world.db.query<{ status: number }>(
      "SELECT response_status AS status FROM grid_command WHERE mrid = $1",
      [mrid],
    );
    expect(rows).toEqual([{ status: 2 }]);
  });
});
