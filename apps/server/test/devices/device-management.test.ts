import { DEFAULT_TARIFF } from "@ess/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildWorld, type World } from "../helpers/channel-world.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { worldClient } from "../helpers/world-client.ts";
import { addEnergyDay } from "./world-energy.ts";

let t: TestApp;
let world: World;
let api: ReturnType<typeof worldClient>;
const deviceCount = async () => (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM device")).rows[0]?.n;

beforeAll(async () => {
  t = await createTestApp();
  world = await buildWorld(t.app, t.db);
  api = worldClient(t, world);
}, 120_000);
afterAll(() => t.close());

describe("registering devices", () => {
  it("registers a device for the caller's organisation, refuses a second with the same SN and a bad model", async () => {
    const created = await api.post("/admin/lsydevice/save", "acc-D1a", { sn: "ess00a1", name: "Garage", model: "T10K" });
    expect(created.json().code).toBe(0);
    const device = created.json().data;
    // Capitals, the model's phase and rated power, sold by the dealer who registered it.
    expect(device).toMatchObject({ sn: "ESS00A1", phaseType: 2, ratedPower: 10, orgId: world.orgs.get("D1a")?.id });
    const before = await deviceCount();
    const again = await api.post("/admin/lsydevice/save", "admin", { sn: "ESS00A1", name: "Other", model: "H5K" });
    expect(again.json()).toMatchObject({
      code: 1,
      data: { fields: [{ field: "sn", message: "This SN code is already registered" }] },
    });
    const bad = await api.post(
      "/admin/lsydevice/save",
      "admin",
      { sn: "ESS00A2", name: "Other", model: "X1", dongleType: 7 },
      "it",
    );
    const fields = bad.json().data.fields.map((f: { field: string; message: string }) => f.field);
    expect(fields).toEqual(expect.arrayContaining(["model", "dongleType"]));
    expect(bad.json().data.fields.find((f: { field: string }) => f.field === "model").message).toBe("Modello sconosciuto");
    expect(await deviceCount()).toBe(before);
  });

  it("edits and deletes; a deleted SN may be registered again", async () => {
    const { data } = (await api.post("/admin/lsydevice/save", "admin", { sn: "ESS00B1", name: "B", model: "H6K" })).json();
    const edited = await api.post("/admin/lsydevice/edit", "admin", {
      id: data.id,
      name: "B renamed",
      model: "H6K",
      countryCode: 3,
      nmi: "NMI123",
      gridCompany: "Grid Co",
      status: 1,
    });
    expect(edited.json().data).toMatchObject({ name: "B renamed", countryCode: 3, nmi: "NMI123", gridCompany: "Grid Co" });
    expect((await api.post("/admin/lsydevice/del", "admin", { id: data.id })).json().code).toBe(0);
    expect((await api.get(`/admin/lsydevice/info?id=${data.id}`, "admin")).statusCode).toBe(404);
    expect((await api.post("/admin/lsydevice/save", "admin", { sn: "ESS00B1", name: "B2", model: "H6K" })).json().code).toBe(0);
  });

  it("takes an installation time staff know, refuses one in the future and keeps it through an edit without it", async () => {
    const installedAt = "2026-03-02T00:00:00.000Z";
    const created = (
      await api.post("/admin/lsydevice/save", "admin", { sn: "ESS00C1", name: "C", model: "H5K", installedAt })
    ).json();
    expect(created.data.installedAt).toBe(installedAt);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const refused = await api.post("/admin/lsydevice/save", "admin", {
      sn: "ESS00C2",
      name: "C2",
      model: "H5K",
      installedAt: future,
    });
    expect(refused.json()).toMatchObject({
      code: 1,
      data: { fields: [{ field: "installedAt", message: "The installation time cannot be in the future" }] },
    });
    const edited = await api.post("/admin/lsydevice/edit", "admin", { id: created.data.id, name: "C renamed", model: "H5K" });
    expect(edited.json().data).toMatchObject({ name: "C renamed", installedAt });
    const moved = await api.post("/admin/lsydevice/edit", "admin", {
      id: created.data.id,
      name: "C renamed",
      model: "H5K",
      installedAt: "2026-01-15T00:00:00.000Z",
    });
    expect(moved.json().data.installedAt).toBe("2026-01-15T00:00:00.000Z");
  });

  it("filters, sorts and pages on the server", async () => {
    await t.db.query("UPDATE device SET mcu_version = 'MCU-2.17', online_status = 1, country_code = 1 WHERE sn = 'dev-2a'");
    const page = async (q: string) => (await api.get(`/admin/lsydevice/page?${q}`, "admin")).json().data;
    expect((await page("firmwareVersion=2.17")).records.map((r: { sn: string }) => r.sn)).toEqual(["dev-2a"]);
    expect((await page("onlineStatus=1&countryCode=1")).total).toBe(1);
    expect((await page("status=2")).records.every((r: { status: number }) => r.status === 2)).toBe(true);
    expect((await page("owner=u1b")).records.map((r: { sn: string }) => r.sn)).toEqual(["dev-1b"]);
    expect((await page(`orgId=${world.orgs.get("D2")?.id}&sort=sn&order=asc`)).records.map((r: { sn: string }) => r.sn)).toEqual([
      "dev-2a",
      "dev-2x",
    ]);
    expect((await page(`installerOrgId=${world.orgs.get("I1b")?.id}`)).total).toBe(1);
    const first = await page("size=2&current=1&sort=sn&order=asc");
    const second = await page("size=2&current=2&sort=sn&order=asc");
    expect(first.total).toBe(second.total);
    expect(first.pages).toBe(Math.ceil(first.total / 2));
    const seen = [...first.records, ...second.records].map((r: { id: number }) => r.id);
    expect(new Set(seen).size).toBe(4);
    const sns = [...first.records, ...second.records].map((r: { sn: string }) => r.sn);
    expect(sns).toEqual([...sns].sort());
  });
});

describe("batch import", () => {
  const file = [
    "sn,name,model,timeZone,dongleType,batteryType,countryCode,ratedPower",
    "IMP0001,Roof one,H6K,Europe/Rome,0,0,1,",
    "IMP0002,Roof two,T12K,,1,1,2,11.5",
    "IMP0003,Bad model,Q9,,,,,",
    "IMP0004,Bad value,H5K,,7,,,",
    "IMP0001,Repeated,H6K,,,,,",
    "ess00a1,Registered,H6K,,,,,",
    ",No serial,H6K,,,,,",
    "IMP0005,,H6K,,,,,",
    "IMP0006,Bad zone,H6K,Mars/Olympus,,,,",
  ].join("\r\n");

  it("reports every row with its reasons and registers only the good ones", async () => {
    const before = await deviceCount();
    const result = (await api.post("/admin/lsydevice/importExcel", "acc-D1a", { content: file })).json().data;
    expect(result.succeeded).toBe(2);
    expect(result.failed).toBe(7);
    const byLine = new Map(result.rows.map((r: { line: number }) => [r.line, r]));
    expect(byLine.get(2)).toMatchObject({ sn: "IMP0001", ok: true, reasons: [] });
    expect(byLine.get(4)).toMatchObject({ ok: false, reasons: ["Unknown model"] });
    expect((byLine.get(5) as { reasons: string[] }).reasons[0]).toMatch(/Dongle type|dongle/i);
    expect(byLine.get(6)).toMatchObject({ ok: false, reasons: ["SN code repeats line 2"] });
    expect(byLine.get(7)).toMatchObject({ ok: false, reasons: ["This SN code is already registered"] });
    expect(byLine.get(8)).toMatchObject({ ok: false });
    expect(byLine.get(9)).toMatchObject({ ok: false });
    expect(byLine.get(10)).toMatchObject({ ok: false });
    expect(await deviceCount()).toBe((before as number) + 2);
    const two = (await api.get("/admin/lsydevice/page?sn=IMP0002", "acc-D1a")).json().data.records[0];
    expect(two).toMatchObject({ model: "H3-12K", phaseType: 2, ratedPower: 11.5, dongleType: 1, batteryType: 1, countryCode: 2 });
    // The rows failed changed nothing: the existing device keeps its name.
    const existing = (await t.db.query<{ name: string }>("SELECT name FROM device WHERE sn = 'ESS00A1'")).rows[0];
    expect(existing?.name).toBe("Garage");
  });

  it("imports the same file again without duplicates", async () => {
    const before = await deviceCount();
    const result = (await api.post("/admin/lsydevice/importExcel", "acc-D1a", { content: file })).json().data;
    expect(result.succeeded).toBe(0);
    expect(await deviceCount()).toBe(before);
  });

  it("refuses a file without the needed columns, in the caller's language, and gives a template", async () => {
    const answer = await api.post("/admin/lsydevice/importExcel", "admin", { content: "serial;label\r\nX;Y\r\n" }, "es");
    expect(answer.json().data.fields[0]).toMatchObject({ field: "content" });
    expect(answer.json().msg).toContain("sn, name, model");
    const template = await api.get("/admin/lsydevice/import/template", "admin");
    expect(template.headers["content-type"]).toContain("spreadsheetml");
    // The template as downloaded imports its example row.
    const content = template.rawPayload.toString("base64");
    const retry = (await api.post("/admin/lsydevice/importExcel", "admin", { format: "xlsx", content })).json().data;
    expect(retry.succeeded).toBe(1);
  });
});

describe("binding and renaming (spec §6)", () => {
  it("refuses to rename as user without a user and as installer without an installer", async () => {
    const { data } = (await api.post("/admin/lsydevice/save", "admin", { sn: "ESSREN01", name: "Loose", model: "H6K" })).json();
    const asUser = await api.post("/admin/lsydevice/rename", "admin", { id: data.id, as: "user", name: "Mine" });
    expect(asUser.json()).toMatchObject({ code: 1, msg: "No user bound. Rename not allowed." });
    const asInstaller = await api.post("/admin/lsydevice/rename", "admin", { id: data.id, as: "installer", name: "Mine" }, "it");
    expect(asInstaller.json().msg).toBe("Nessun installatore associato. Rinomina non consentita.");
    const bound = await api.post("/admin/lsydevice/bindInstaller".replace("Installer", "Agent"), "admin", {
      id: data.id,
      installerOrgId: world.orgs.get("I1a")?.id,
    });
    expect(bound.json().data).toMatchObject({ installerName: "Company I1a" });
    expect(bound.json().data.installedAt).not.toBeNull();
    const renamed = await api.post("/admin/lsydevice/rename", "admin", { id: data.id, as: "installer", name: "Installed" });
    expect(renamed.json().data.name).toBe("Installed");
  });

  it("lets a user rename its own device as user only, and an installer as installer only", async () => {
    const dev = world.devices.get("dev-1a")?.id as number;
    expect((await api.post("/admin/lsydevice/rename", "u1a", { id: dev, as: "user", name: "Home" })).json().data.name).toBe(
      "Home",
    );
    expect((await api.post("/admin/lsydevice/rename", "u1a", { id: dev, as: "installer", name: "X" })).statusCode).toBe(403);
    expect(
      (await api.post("/admin/lsydevice/rename", "acc-I1a", { id: dev, as: "installer", name: "Site 7" })).json().data.name,
    ).toBe("Site 7");
  });

  it("binds only master users, unbinds, and refuses to unbind what is not bound", async () => {
    const { data } = (await api.post("/admin/lsydevice/save", "acc-D1a", { sn: "ESSBIND1", name: "Bind", model: "H6K" })).json();
    const sub = await api.post("/admin/lsydevice/bindUser", "acc-D1a", { id: data.id, userId: world.users.get("u1a-sub")?.id });
    expect(sub.json().data.fields[0]).toMatchObject({ field: "userId", message: "Only a master user can be bound" });
    const other = await api.post("/admin/lsydevice/bindUser", "acc-D1a", { id: data.id, userId: world.users.get("u1b")?.id });
    expect(other.statusCode).toBe(404);
    const ok = await api.post("/admin/lsydevice/bindUser", "acc-D1a", { id: data.id, userId: world.users.get("u1a")?.id });
    expect(ok.json().data).toMatchObject({ ownerName: "u1a" });
    expect(ok.json().data.userBoundAt).not.toBeNull();
    // The user now sees it among its devices.
    expect((await api.get("/admin/lsydevice/page?sn=ESSBIND1", "u1a")).json().data.total).toBe(1);
    expect((await api.post("/admin/lsydevice/unbindUser", "acc-D1a", { id: data.id })).json().code).toBe(0);
    expect((await api.get("/admin/lsydevice/page?sn=ESSBIND1", "u1a")).json().data.total).toBe(0);
    const again = await api.post("/admin/lsydevice/unbindUser", "acc-D1a", { id: data.id });
    expect(again.json()).toMatchObject({ code: 1, msg: "No user is bound to this device" });
    const noInstaller = await api.post("/admin/lsydevice/unbindAgent", "acc-D1a", { id: data.id });
    expect(noInstaller.json().msg).toBe("No installer is bound to this device");
    // An installer company of another distributor is not found.
    const foreign = await api.post("/admin/lsydevice/bindAgent", "acc-D1a", {
      id: data.id,
      installerOrgId: world.orgs.get("I2a")?.id,
    });
    expect(foreign.statusCode).toBe(404);
  });

  it("refuses a second user on a bound device, naming the one bound; a transfer is an unbind then a bind, both logged", async () => {
    const { data } = (await api.post("/admin/lsydevice/save", "admin", { sn: "ESSBIND2", name: "Bind", model: "H6K" })).json();
    const u1a = world.users.get("u1a")?.id as number;
    const u1b = world.users.get("u1b")?.id as number;
    const bound = (await api.post("/admin/lsydevice/bindUser", "admin", { id: data.id, userId: u1a })).json().data;
    const second = await api.post("/admin/lsydevice/bindUser", "admin", { id: data.id, userId: u1b });
    expect(second.statusCode).toBe(400);
    expect(second.json().msg).toBe("This device is already bound to user u1a: unbind that user first, then bind the new one");
    const italian = await api.post("/admin/lsydevice/bindUser", "admin", { id: data.id, userId: u1b }, "it");
    expect(italian.json().msg).toBe(
      "Questo dispositivo è già associato all'utente u1a: dissocia prima quell'utente, poi associa il nuovo",
    );
    // Nothing moved: the device, its binding time and what the first user sees.
    const info = (await api.get(`/admin/lsydevice/info?id=${data.id}`, "admin")).json().data;
    expect(info).toMatchObject({ ownerName: "u1a", userBoundAt: bound.userBoundAt });
    expect((await api.get("/admin/lsydevice/page?sn=ESSBIND2", "u1b")).json().data.total).toBe(0);
    // The same user again changes nothing.
    expect((await api.post("/admin/lsydevice/bindUser", "admin", { id: data.id, userId: u1a })).json().data).toMatchObject({
      ownerName: "u1a",
      userBoundAt: bound.userBoundAt,
    });

    await t.db.query("DELETE FROM sys_log");
    expect((await api.post("/admin/lsydevice/unbindUser", "admin", { id: data.id })).statusCode).toBe(200);
    expect((await api.post("/admin/lsydevice/bindUser", "admin", { id: data.id, userId: u1b })).json().data).toMatchObject({
      ownerName: "u1b",
    });
    const { rows } = await t.db.query("SELECT operation, status, params->'body' AS body FROM sys_log ORDER BY id");
    expect(rows).toEqual([
      { operation: "device.unbindUser", status: 200, body: { id: data.id } },
      { operation: "device.bindUser", status: 200, body: { id: data.id, userId: u1b } },
    ]);
  });

  it("refuses a second installer on a bound device the same way", async () => {
    const { data } = (await api.post("/admin/lsydevice/save", "admin", { sn: "ESSBIND3", name: "Bind", model: "H6K" })).json();
    const i1a = world.orgs.get("I1a")?.id as number;
    const i1b = world.orgs.get("I1b")?.id as number;
    expect((await api.post("/admin/lsydevice/bindAgent", "admin", { id: data.id, installerOrgId: i1a })).statusCode).toBe(200);
    const second = await api.post("/admin/lsydevice/bindAgent", "admin", { id: data.id, installerOrgId: i1b }, "es");
    expect(second.json()).toMatchObject({
      code: 1,
      msg: "Este dispositivo ya está vinculado al instalador Company I1a: desvincule primero a ese instalador y después vincule al nuevo",
    });
    expect((await api.get(`/admin/lsydevice/info?id=${data.id}`, "admin")).json().data.installerOrgId).toBe(i1a);
    expect((await api.post("/admin/lsydevice/bindAgent", "admin", { id: data.id, installerOrgId: i1a })).statusCode).toBe(200);
    expect((await api.post("/admin/lsydevice/unbindAgent", "admin", { id: data.id })).statusCode).toBe(200);
    const moved = await api.post("/admin/lsydevice/bindAgent", "admin", { id: data.id, installerOrgId: i1b });
    expect(moved.json().data.installerOrgId).toBe(i1b);
  });

  it("binds one of two users sent at once, and refuses the other", async () => {
    const { data } = (await api.post("/admin/lsydevice/save", "admin", { sn: "ESSBIND4", name: "Bind", model: "H6K" })).json();
    const answers = await Promise.all(
      ["u1a", "u1b"].map((who) =>
        api.post("/admin/lsydevice/bindUser", "admin", { id: data.id, userId: world.users.get(who)?.id as number }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    const winner = answers.find((a) => a.statusCode === 200)?.json().data.ownerName;
    expect((await api.get(`/admin/lsydevice/info?id=${data.id}`, "admin")).json().data.ownerName).toBe(winner);
  });
});

describe("revenue from tariffs", () => {
  const range = (id: number) => `/admin/lsydeviceincomedata/list?deviceId=${id}&type=0&startDate=2026-04-01&endDate=2026-04-30`;

  it("prices energy by the default tariff, the tenant's default, then the user's own", async () => {
    const id = world.devices.get("dev-1b")?.id as number;
    await addEnergyDay(t.db, id, "2026-03-31", { pv: 5, load: 5, buy: 0, sell: 0 });
    await addEnergyDay(t.db, id, "2026-04-01", { pv: 20, load: 15, buy: 3, sell: 8 });
    await addEnergyDay(t.db, id, "2026-04-02", { pv: 10, load: 12, buy: 4, sell: 2 });

    const product = (await api.get(range(id), "u1b")).json().data;
    expect(product.tariff).toEqual({ source: "default", ...DEFAULT_TARIFF });
    // 2026-04-01: self-use (20 - 8) x buy price, sales 8 x sell price.
    expect(product.records[0]).toEqual({
      period: "2026-04-01",
      generation: 20 * DEFAULT_TARIFF.buyPrice,
      selfUse: 12 * DEFAULT_TARIFF.buyPrice,
      sales: Math.round(8 * DEFAULT_TARIFF.sellPrice * 100) / 100,
      total: Math.round((12 * DEFAULT_TARIFF.buyPrice + 8 * DEFAULT_TARIFF.sellPrice) * 100) / 100,
    });

    await t.db.query(
      "INSERT INTO electricity_tariff (tenant_id, user_id, currency, buy_price, sell_price) VALUES (1, NULL, 'EUR', 0.5, 0.1)",
    );
    const tenant = (await api.get(range(id), "u1b")).json().data;
    expect(tenant.tariff).toMatchObject({ source: "default", buyPrice: 0.5, sellPrice: 0.1 });
    expect(tenant.totals).toEqual({ generation: 15, selfUse: 10, sales: 1, total: 11 });
    // The cumulative gain also counts the day before the range: 5 kWh used at 0.5.
    expect(tenant.cumulative).toBe(13.5);

    await t.db.query(
      "INSERT INTO electricity_tariff (tenant_id, user_id, currency, buy_price, sell_price) VALUES (1, $1, 'AUD', 0.3, 0.2)",
      [world.users.get("u1b")?.id],
    );
    const own = (await api.get(range(id), "u1b")).json().data;
    expect(own.tariff).toEqual({ source: "user", currency: "AUD", buyPrice: 0.3, sellPrice: 0.2 });
    expect(own.totals).toEqual({ generation: 9, selfUse: 6, sales: 2, total: 8 });

    // Monthly figures and the spreadsheet of the same range.
    const csv = (
      await api.get(`${range(id).replace("type=0", "type=1")}`.replace("incomedata/list", "electricitydata/export"), "u1b")
    ).body;
    expect(csv.split("\r\n")[1]).toBe("2026-04,30,27,7,10,0,0,9,6,2,8");
  });

  it("refuses an end before the start (spec §5)", async () => {
    const id = world.devices.get("dev-1b")?.id as number;
    const answer = await api.get(
      `/admin/lsydeviceincomedata/list?deviceId=${id}&type=2&startDate=2027-01-01&endDate=2026-01-01`,
      "u1b",
    );
    expect(answer.json().data.fields[0].field).toBe("endDate");
  });
});
