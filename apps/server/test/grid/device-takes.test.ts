import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeviceTake } from "../../src/modules/grid/event-responses.ts";
import { waitUntil } from "../helpers/reminders.ts";
import { type GridWorld, NMIS, startGridWorld } from "./grid-world.ts";

// Issue 20: "a device that refuses or is offline shows it, and the utility is told". One event
// reaches three sites; each site's device takes it differently, and each site's responses say so.
const TAKES: Record<string, DeviceTake> = {
  // The inverter refused the write (busy upgrading, say).
  TAKEREFUSE: { outcome: "refused", notApplicable: [] },
  // Offline all through the event: the write waits in its queue.
  TAKEOFFLINE: { outcome: "queued", notApplicable: [] },
  // Took the export limit; its product cannot follow the storage target.
  TAKEPARTLY: { outcome: "acknowledged", notApplicable: ["opModStorageTargetW"] },
};

describe("grid client: responses follow how each site's device took the control", () => {
  let world: GridWorld;
  let mrid: string;
  beforeAll(async () => {
    const sns = Object.keys(TAKES);
    const bySite = new Map<number, DeviceTake>();
    world = await startGridWorld({
      factor: 60,
      sites: sns.map((sn, i) => ({ sn, nmi: NMIS[i] as string })),
      take: (deviceId) => bySite.get(deviceId),
    });
    for (const sn of sns) bySite.set(world.devices.get(sn) as number, TAKES[sn] as DeviceTake);
    const program = world.sim.control.createProgram({ primacy: 1 });
    mrid = world.sim.control.createControl({
      programId: program.id,
      start: world.sim.control.now() + 60,
      duration: 180,
      base: { opModExpLimW: { value: 2, multiplier: 3 }, opModStorageTargetW: { value: -3, multiplier: 3 } },
    }).mRID;
    const final = new Set<number>([3, 4, 10]);
    await waitUntil(
      () => sns.every((sn) => statuses(sn).some((s) => s !== undefined && final.has(s))),
      30_000,
      "each site's last response",
    );
    // A moment more: nothing may follow a final response.
    await world.clock.sleep(60_000);
  }, 60_000);
  afterAll(() => world?.close());

  const statuses = (sn: string) => world.sim.control.statusesOf(mrid, world.siteLfdi(sn));

  it("opts out a site whose device refused the control, and says nothing more of it", () => {
    const said = statuses("TAKEREFUSE");
    expect(said[0]).toBe(1);
    expect(said.at(-1)).toBe(4);
    expect(said).not.toContain(3);
  });

  it("completes without participation an event the site's device never took", () => {
    expect(statuses("TAKEOFFLINE")).toEqual([1, 2, 10]);
  });

  it("tells a partial opt-out when the product cannot follow one of the control's modes, then completes", () => {
    expect(statuses("TAKEPARTLY")).toEqual([1, 2, 8, 3]);
  });
});
