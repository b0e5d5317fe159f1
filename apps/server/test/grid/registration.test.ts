import { GRID_DIRECTIONS, GRID_REGISTRATION_STATES, penSuffix } from "@ess/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitUntil } from "../helpers/reminders.ts";
import { type GridWorld, NMIS, startGridWorld } from "./grid-world.ts";

// Procedures ALL-01/02/03/05 (discovery, in-band and out-of-band registration, ConnectionPoint, DER descriptions).
describe("grid client: discovery and registration", () => {
  let world: GridWorld;
  beforeAll(async () => {
    world = await startGridWorld({
      factor: 60,
      sites: [
        { sn: "AUSITE001", nmi: NMIS[0] },
        { sn: "AUSITE002", nmi: NMIS[1] },
        { sn: "AUSITE003", nmi: NMIS[2], outOfBand: { pin: 111115 } },
      ],
      defaultPin: "111115",
      rates: { edevListPoll: 30 },
    });
    await waitUntil(
      async () => {
        const { rows } = await world.db.query("SELECT 1 FROM grid_site WHERE registered_state = 1");
        const described = new Set(
          world.sim.control
            .derWrites()
            .filter((w) => w.kind === "availability")
            .map((w) => w.endDeviceId),
        );
        return rows.length === 3 && described.size === 3;
      },
      15_000,
      "three sites registered and described",
    );
  });
  afterAll(() => world?.close());

  it("registers two sites in band with LFDIs ending in the PEN, and finds the out-of-band one", () => {
    const devices = world.sim.control.endDevices();
    expect(devices).toHaveLength(3);
    const byLfdi = new Map(devices.map((d) => [d.lfdi, d]));
    for (const sn of ["AUSITE001", "AUSITE002"]) {
      const device = byLfdi.get(world.siteLfdi(sn));
      expect(device?.inBand).toBe(true);
      expect(device?.lfdi.endsWith(penSuffix())).toBe(true);
    }
    expect(byLfdi.get(world.siteLfdi("AUSITE003"))?.inBand).toBe(false);
    // Only one EndDevice per site: the out-of-band one was not registered a second time.
    expect(world.sim.control.requests({ method: "POST", path: "/edev" })).toHaveLength(2);
  });

  it("discovers in order dcap, time, a paged EndDeviceList, and never pages without l", () => {
    const requests = world.sim.control.requests({ lfdi: world.aggregatorLfdi });
    const first = requests.slice(0, 3).map((r) => r.path);
    expect(first).toEqual(["/dcap", "/tm", "/edev"]);
    for (const list of requests.filter((r) => r.method === "GET" && /^\/edev$|\/(fsa|derp|derc|der)$/.test(r.path)))
      expect(list.query).toMatch(/(^|&)l=\d+/);
  });

  it("writes each site's NMI to its ConnectionPoint, the out-of-band one included", () => {
    const nmis = Object.fromEntries(world.sim.control.endDevices().map((d) => [d.lfdi, d.connectionPointId]));
    expect(nmis[world.siteLfdi("AUSITE001")]).toBe(NMIS[0]);
    expect(nmis[world.siteLfdi("AUSITE003")]).toBe(NMIS[2]);
  });

  it("describes each DER with scaled ratings from the device's rated power", () => {
    const capability = world.sim.control.derWrites().find((w) => w.kind === "capability")?.value as {
      rtgMaxW: { value: number; multiplier: number };
      doeModesSupported: string;
    };
    expect(capability.rtgMaxW.value * 10 ** capability.rtgMaxW.multiplier).toBe(6000);
    expect(capability.doeModesSupported).toBe("0F");
    const kinds = new Set(world.sim.control.derWrites().map((w) => w.kind));
    expect([...kinds].sort()).toEqual(["availability", "capability", "settings", "status"]);
  });

  it("keeps a grid site per Australian device with its registration, and none for others", async () => {
    const { rows } = await world.db.query<{ sn: string; state: number; href: string | null; lfdi: string }>(
      `SELECT d.sn, s.registered_state AS state, s.end_device_href AS href, s.lfdi
         FROM grid_site s JOIN device d ON d.id = s.device_id ORDER BY d.sn`,
    );
    expect(rows.map((r) => r.sn)).toEqual(["AUSITE001", "AUSITE002", "AUSITE003"]);
    for (const row of rows) {
      expect(row.state).toBe(GRID_REGISTRATION_STATES.registered);
      expect(row.href).toMatch(/^\/edev\/\d+$/);
    }
  });

  it("stores the XML both ways: answers received and documents sent, per site", async () => {
    type Row = { direction: number; method: string; resource: string; body: string; site: number | null };
    const stored = async () =>
      (await world.db.query<Row>("SELECT direction, method, resource, body, site_id::int AS site FROM grid_exchange ORDER BY id"))
        .rows;
    // Exchanges are stored in batches a quarter of a second apart.
    await waitUntil(async () => (await stored()).some((r) => r.resource === "ConnectionPoint"), 5_000, "exchanges stored");
    const rows = await stored();
    const list = rows.find((r) => r.resource === "EndDeviceList");
    expect(list?.direction).toBe(GRID_DIRECTIONS.received);
    expect(list?.body).toContain("<EndDeviceList");
    const posted = rows.find((r) => r.method === "POST" && r.resource === "EndDevice");
    expect(posted?.direction).toBe(GRID_DIRECTIONS.sent);
    expect(posted?.site).not.toBeNull();
    expect(posted?.body).toMatch(/<lFDI>[0-9A-F]{40}<\/lFDI>/);
    const cp = rows.find((r) => r.resource === "ConnectionPoint");
    expect(cp?.body).toContain("connectionPointId");
  });

  it("keeps reading the DER list but writes a DER description again only when what it says changes", async () => {
    const edev = world.sim.control.endDevices().find((d) => d.lfdi === world.siteLfdi("AUSITE001"))?.id as number;
    const writes = (kind: string) => world.sim.control.derWrites().filter((w) => w.endDeviceId === edev && w.kind === kind);
    const derReads = () => world.sim.control.requests({ method: "GET", path: `/edev/${edev}/der` }).length;
    const [status, capability, reads] = [writes("status").length, writes("capability").length, derReads()];
    // Three DER list periods (60 s of server time each) with nothing changed at the device.
    await waitUntil(() => derReads() >= reads + 3, 10_000, "three more reads of the DER list");
    expect(writes("status")).toHaveLength(status);
    expect(writes("capability")).toHaveLength(capability);

    // The device goes offline: its status says so at the next DER list period; its ratings are unchanged.
    await world.db.query("UPDATE device SET online_status = 0 WHERE sn = 'AUSITE001'");
    await waitUntil(() => writes("status").length > status, 10_000, "a new DERStatus");
    const latest = writes("status").at(-1)?.value as { genConnectStatus: { value: string } };
    expect(latest.genConnectStatus.value).toBe("00");
    expect(writes("capability")).toHaveLength(capability);
  });

  it("writes an NMI staff change after registration to the ConnectionPoint", async () => {
    await world.db.query("UPDATE device SET nmi = '41030000018' WHERE sn = 'AUSITE002'");
    const lfdi = world.siteLfdi("AUSITE002");
    // An EndDevice list period (30 s) and a DER list period (60 s) of server time at most.
    await waitUntil(
      () => world.sim.control.endDevices().find((d) => d.lfdi === lfdi)?.connectionPointId === "41030000018",
      5_000,
      "the new NMI at the utility",
    );
  });
});
