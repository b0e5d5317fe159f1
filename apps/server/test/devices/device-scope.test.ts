import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readWorkbook } from "../../src/workbooks/workbooks.ts";
import { buildWorld, type World } from "../helpers/channel-world.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { worldClient } from "../helpers/world-client.ts";
import { addEnergyDay, todayIn } from "./world-energy.ts";

/**
 * A dealer never meets another dealer's device: not in the list or its total, not by id, not in
 * statistics, the export or the data board's figures. Every device of the world gets its own
 * energy, so a leak into a sum shows as a wrong figure.
 */
let t: TestApp;
let world: World;
let api: ReturnType<typeof worldClient>;
const id = (key: string) => world.devices.get(key)?.id as number;

beforeAll(async () => {
  t = await createTestApp();
  world = await buildWorld(t.app, t.db);
  api = worldClient(t, world);
  const today = todayIn("UTC");
  let n = 1;
  for (const device of world.devices.values()) {
    // Distinct powers of ten: any sum tells which devices went into it.
    await addEnergyDay(t.db, device.id, today, { pv: 10 ** n, load: 1, buy: 0, sell: 0 });
    await addEnergyDay(t.db, device.id, "2026-03-15", { pv: 10 ** n, load: 1, buy: 0, sell: 0 });
    n++;
  }
}, 120_000);
afterAll(() => t.close());

describe("a dealer's devices", () => {
  it("lists only its own devices, with a total to match", async () => {
    const answer = (await api.get("/admin/lsydevice/page?size=100", "acc-D1a")).json().data;
    expect(answer.records.map((r: { sn: string }) => r.sn)).toEqual(["dev-1a"]);
    expect(answer.total).toBe(1);
    // Even when it asks for another dealer's organisation or devices by name.
    const byName = (await api.get("/admin/lsydevice/page?sn=dev-1b", "acc-D1a")).json();
    expect(byName.data.total).toBe(0);
    // An organisation out of its scope is refused as one that does not exist.
    const other = await api.get(`/admin/lsydevice/page?sn=dev-1b&orgId=${world.orgs.get("D1b")?.id}`, "acc-D1a");
    expect(other.statusCode).toBe(404);
    expect(other.json().data).toBeNull();
    // The distributor above both sees both (and its own installer's device).
    const d1 = (await api.get("/admin/lsydevice/page?size=100&sort=sn&order=asc", "acc-D1")).json().data;
    expect(d1.records.map((r: { sn: string }) => r.sn)).toEqual(["dev-1a", "dev-1b", "dev-1shown"]);
  });

  it("cannot open, rate or chart another dealer's device", async () => {
    expect((await api.get(`/admin/lsydevice/info?id=${id("dev-1a")}`, "acc-D1a")).statusCode).toBe(200);
    const info = await api.get(`/admin/lsydevice/info?id=${id("dev-1b")}`, "acc-D1a");
    expect(info.statusCode).toBe(404);
    expect(info.json().msg).toBe("Device not found");
    const range = "type=0&startDate=2026-03-01&endDate=2026-03-31";
    expect((await api.get(`/admin/lsydeviceincomedata/list?deviceId=${id("dev-1b")}&${range}`, "acc-D1a")).statusCode).toBe(404);
    expect(
      (await api.get(`/admin/lsydeviceelectricitydata/export?deviceId=${id("dev-1b")}&${range}`, "acc-D1a")).statusCode,
    ).toBe(404);
    expect((await api.get(`/admin/lsydeviceelectricitydata/list?deviceId=${id("dev-1b")}&${range}`, "acc-D1a")).statusCode).toBe(
      404,
    );
  });

  it("exports only its own devices", async () => {
    const answer = await api.get("/admin/lsydevice/export", "acc-D1a");
    expect(answer.headers["content-type"]).toContain("spreadsheetml");
    const rows = await readWorkbook(answer.rawPayload);
    // The header and its one device.
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain("dev-1a");
    for (const other of ["dev-1b", "dev-1shown", "dev-2a", "dev-2x"]) expect(rows.flat()).not.toContain(other);
  });

  it("sees on its data board only its own devices' counts and energy", async () => {
    const board = (await api.get("/admin/board/total", "acc-D1a")).json().data;
    expect(board.devices.all).toBe(1);
    expect(board.devices.offline).toBe(1);
    const pv1a = 10 ** ([...world.devices.keys()].indexOf("dev-1a") + 1);
    expect(board.today.pv).toBe(pv1a);
    expect(board.total.pv).toBe(2 * pv1a);
    // Another dealer's organisation as the board's filter is not found.
    expect((await api.get(`/admin/board/total?orgId=${world.orgs.get("D1b")?.id}`, "acc-D1a")).statusCode).toBe(404);
    // The administrator's board adds up every device.
    const all = (await api.get("/admin/board/total", "admin")).json().data;
    expect(all.devices.all).toBe(world.devices.size);
    expect(all.total.pv).toBe(2 * [...world.devices.keys()].reduce((s, _, i) => s + 10 ** (i + 1), 0));
    // An end user sees its own device only.
    const user = (await api.get("/admin/board/total", "u2a-sub")).json().data;
    expect(user.devices.all).toBe(1);
    expect(user.today.pv).toBe(10 ** ([...world.devices.keys()].indexOf("dev-2a") + 1));
  });
});
