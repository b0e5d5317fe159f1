import { FAULT_SEED, LOCALES } from "@ess/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { createTestApp, signIn, type TestApp } from "../helpers/test-app.ts";

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app);
});
afterAll(() => t.close());

const call = (method: "GET" | "POST", url: string, payload?: object, token = admin, lang = "en-US") =>
  t.app.inject({
    method,
    url,
    ...(payload ? { payload } : {}),
    headers: { authorization: `Bearer ${token}`, "accept-language": lang },
  });

const texts = (info: string) =>
  Object.fromEntries(LOCALES.map((l) => [l, { info: `${info} ${l}`, causes: `Causes ${l}`, remedy: `Remedy ${l}` }]));

describe("the fault catalogue", () => {
  it("is seeded with every code the devices raise, in all five languages, with causes and remedies", async () => {
    const page = (await call("GET", "/admin/lsyfault/page?size=500")).json().data;
    const expected = FAULT_SEED.flatMap((f) => Object.keys(f.triggers).map((type) => `${f.code}:${type}`)).sort();
    expect(page.records.map((r: { code: number; systemType: number }) => `${r.code}:${r.systemType}`).sort()).toEqual(expected);
    const categories = new Set(FAULT_SEED.map((f) => f.category));
    expect([...categories].sort()).toEqual(["battery", "communication", "generator", "grid", "inverter", "meter", "pv"]);
    for (const r of page.records) {
      for (const l of LOCALES) {
        expect(r.texts[l].info.length, `${r.code} ${l}`).toBeGreaterThan(3);
        expect(r.texts[l].causes.length).toBeGreaterThan(10);
        expect(r.texts[l].remedy.length).toBeGreaterThan(10);
      }
    }
    const filtered = (await call("GET", "/admin/lsyfault/page?level=3&systemType=2&info=protection")).json().data;
    expect(filtered.records.map((r: { code: number }) => r.code).sort()).toEqual([2101, 2102]);
  });

  it("lets an administrator add, edit and delete a code, refusing bad input with the field named", async () => {
    const created = await call("POST", "/admin/lsyfault/save", {
      code: 4001,
      level: 2,
      systemType: 1,
      texts: texts("Test fault"),
      display: true,
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().data.id;

    const taken = await call("POST", "/admin/lsyfault/save", { code: 4001, level: 1, systemType: 1, texts: texts("Again") });
    expect(taken.json()).toMatchObject({ code: 1, data: { fields: [{ field: "code", message: "This code already exists" }] } });

    const noJapanese = { ...texts("X") };
    delete noJapanese.ja;
    const missing = await call("POST", "/admin/lsyfault/save", { code: 4002, level: 4, systemType: 1, texts: noJapanese });
    expect(missing.statusCode).toBe(400);
    const fields = missing.json().data.fields.map((f: { field: string }) => f.field);
    expect(fields).toEqual(expect.arrayContaining(["level", "texts.ja"]));
    expect((await call("GET", "/admin/lsyfault/page?code=4002")).json().data.total).toBe(0);

    const edited = await call("POST", "/admin/lsyfault/edit", {
      id,
      code: 4001,
      level: 3,
      systemType: 1,
      texts: texts("Renamed"),
      display: false,
    });
    expect(edited.json().data).toMatchObject({ level: 3, display: false, texts: { it: { info: "Renamed it" } } });
    expect((await call("POST", "/admin/lsyfault/del", { id })).statusCode).toBe(200);
    expect((await call("POST", "/admin/lsyfault/del", { id })).statusCode).toBe(404);
  });

  it("exports the catalogue and imports it back, all or nothing", async () => {
    const exported = await call("GET", "/admin/lsyfault/export");
    expect(exported.headers["content-disposition"]).toContain("fault-catalogue.json");
    const { faults } = JSON.parse(exported.body);
    expect(faults.length).toBe((await call("GET", "/admin/lsyfault/page")).json().data.total);

    const changed = faults.map((f: { code: number; texts: Record<string, { info: string }> }) =>
      f.code === 1001 ? { ...f, texts: { ...f.texts, "en-US": { ...f.texts["en-US"], info: "Mains failure" } } } : f,
    );
    const added = { code: 4100, level: 1, systemType: 2, category: "meter", texts: texts("Imported"), display: true };
    const result = await call("POST", "/admin/lsyfault/import", { faults: [...changed, added] });
    expect(result.json().data).toEqual({ created: 1, updated: faults.length });
    const grid = (await call("GET", "/admin/lsyfault/page?code=1001")).json().data.records;
    expect(grid.map((r: { texts: Record<string, { info: string }> }) => r.texts["en-US"]?.info)).toEqual([
      "Mains failure",
      "Mains failure",
    ]);

    // A duplicate in the file refuses the whole file: nothing changes.
    const twice = await call("POST", "/admin/lsyfault/import", {
      faults: [
        { ...added, code: 4101 },
        { ...added, code: 4101 },
      ],
    });
    expect(twice.statusCode).toBe(400);
    expect((await call("GET", "/admin/lsyfault/page?code=4101")).json().data.total).toBe(0);
  });

  it("keeps alarm control entries with their order, refusing missing names", async () => {
    const a = await call("POST", "/admin/lsyalarmcontrol/save", {
      code: 1001,
      name: "Grid lost",
      description: "Pushed",
      sort: 2,
    });
    const b = await call("POST", "/admin/lsyalarmcontrol/save", {
      code: 2001,
      name: "Cell voltage",
      description: "Pushed",
      sort: 1,
    });
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const list = (await call("GET", "/admin/lsyalarmcontrol/page")).json().data.records;
    expect(list.map((r: { code: number }) => r.code)).toEqual([2001, 1001]);
    const bad = await call("POST", "/admin/lsyalarmcontrol/save", { code: 1002, name: " ", description: "" });
    expect(
      bad
        .json()
        .data.fields.map((f: { field: string }) => f.field)
        .sort(),
    ).toEqual(["description", "name"]);
    const dup = await call("POST", "/admin/lsyalarmcontrol/save", { code: 1001, name: "Again", description: "Again" });
    expect(dup.json().data.fields[0].field).toBe("code");
    const edit = await call("POST", "/admin/lsyalarmcontrol/edit", {
      id: a.json().data.id,
      code: 1001,
      name: "Grid",
      description: "Hidden",
      display: false,
      sort: 3,
    });
    expect(edit.json().data).toMatchObject({ display: false, sort: 3 });
    expect((await call("POST", "/admin/lsyalarmcontrol/del", { id: b.json().data.id })).statusCode).toBe(200);
  });

  it("refuses the catalogue to accounts without the permission", async () => {
    const agentRole = (await t.db.query<{ id: number }>("SELECT id FROM sys_role WHERE code = 'AGENT'")).rows[0]?.id;
    const created = await t.app.inject({
      method: "POST",
      url: "/sys/user/save",
      payload: { username: "viewer", password: "Viewer2025x", name: "Viewer", userType: 0, roleIds: [agentRole] },
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(created.statusCode, created.body).toBe(200);
    await t.db.query("UPDATE sys_user SET must_change_password = false WHERE username = 'viewer'");
    const viewer = await signIn(t.app, "viewer", "Viewer2025x");
    expect((await call("GET", "/admin/lsyfault/page", undefined, viewer)).statusCode).toBe(403);
    expect((await call("POST", "/admin/lsyfault/del", { id: 1 }, viewer)).statusCode).toBe(403);
    expect((await call("POST", "/admin/lsyalarmcontrol/save", { code: 1, name: "x", description: "x" }, viewer)).statusCode).toBe(
      403,
    );
    // An agent reads alarms but may not hide them.
    expect((await call("GET", "/admin/lsydevicealarm/page", undefined, viewer)).statusCode).toBe(200);
    const hide = { deviceId: 1, faultCode: 1001, beginTime: 0, endTime: 1000, action: "hide" };
    expect((await call("POST", "/admin/lsydevicealarm/edit", hide, viewer)).statusCode).toBe(403);
    // Preferences are everyone's own.
    expect((await call("GET", "/admin/alarm/preference", undefined, viewer)).json().data).toEqual({
      levels: [1, 2, 3],
      onlineEvents: true,
    });
  });
});

describe("hiding and deleting alarms (spec §5 and §8)", () => {
  let deviceId: number;
  const hour = 3_600_000;
  const base = Date.now() - 10 * hour;

  beforeAll(async () => {
    const d = await registerDevice(t.db, { sn: uniqueSerial("HIDE"), phaseType: 2 });
    deviceId = d.id;
    const insert = (code: number, at: number, cleared: number | null) =>
      t.db.query(
        `INSERT INTO device_alarm (device_id, code, level, system_type, occurred_at, cleared_at, last_ts)
         VALUES ($1, $2, 2, 2, $3, $4, $3)`,
        [deviceId, code, new Date(at), cleared === null ? null : new Date(cleared)],
      );
    await insert(2001, base, base + hour);
    await insert(2001, base + 2 * hour, base + 3 * hour);
    await insert(2001, base + 5 * hour, null);
    await insert(2004, base + 2 * hour, base + 3 * hour);
  });

  const listed = async (code: number) =>
    (await call("GET", `/admin/lsydevicealarm/page?deviceId=${deviceId}&faultCode=${code}`)).json().data.total as number;

  it("refuses times in the future, an end not after the start and a missing code, changing nothing", async () => {
    const future = await call("POST", "/admin/lsydevicealarm/edit", {
      deviceId,
      faultCode: 2001,
      beginTime: base,
      endTime: Date.now() + hour,
      action: "hide",
    });
    expect(future.json()).toMatchObject({
      code: 1,
      data: { fields: [{ field: "endTime", message: "End time cannot be in the future" }] },
    });
    const backwards = await call("POST", "/admin/lsydevicealarm/edit", {
      deviceId,
      faultCode: 2001,
      beginTime: base + hour,
      endTime: base,
      action: "hide",
    });
    expect(backwards.json().data.fields[0]).toMatchObject({ field: "endTime", message: "End time must be after the start time" });
    const noCode = await call("POST", "/admin/lsydevicealarm/edit", {
      deviceId,
      beginTime: base,
      endTime: base + hour,
      action: "hide",
    });
    expect(noCode.json().data.fields.map((f: { field: string }) => f.field)).toEqual(["faultCode"]);
    const noTimes = await call("POST", "/admin/lsydevicealarm/edit", { deviceId, faultCode: 2001, action: "hide" });
    expect(
      noTimes
        .json()
        .data.fields.map((f: { field: string }) => f.field)
        .sort(),
    ).toEqual(["beginTime", "endTime"]);
    expect(await listed(2001)).toBe(3);
  });

  it("hides one code's alarms in the range only; delete removes closed ones and hides an open one", async () => {
    const hidden = await call("POST", "/admin/lsydevicealarm/edit", {
      deviceId,
      faultCode: 2001,
      beginTime: base - 1,
      endTime: base + 2 * hour + 1,
      action: "hide",
    });
    expect(hidden.json().data).toEqual({ affected: 2 });
    expect(await listed(2001)).toBe(1);
    expect(await listed(2004)).toBe(1);

    const deleted = await call("POST", "/admin/lsydevicealarm/edit", {
      deviceId,
      faultCode: 2001,
      beginTime: base - 1,
      endTime: Date.now() - 1000,
      action: "delete",
    });
    expect(deleted.json().data.affected).toBe(3);
    expect(await listed(2001)).toBe(0);
    const stored = await t.db.query<{ open: boolean }>(
      "SELECT cleared_at IS NULL AS open FROM device_alarm WHERE device_id = $1 AND code = 2001",
      [deviceId],
    );
    // The open one stays (hidden), so the next reading does not open it again as a new alarm.
    expect(stored.rows).toEqual([{ open: true }]);
  });
});
