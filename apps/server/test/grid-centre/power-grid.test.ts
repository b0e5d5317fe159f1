import { nmiChecksum } from "@ess/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller } from "../helpers/api-caller.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { createTestApp, signIn, type TestApp } from "../helpers/test-app.ts";

/**
 * A device's NMI and grid company: only Australian devices take them, the NMI passes AEMO's rules
 * and the grid company must be the NMI's network; refusals name the field in the caller's
 * language, and a save is written to the operation log.
 */
let t: TestApp;
let admin: string;
let australian: string;
let italian: string;
const as = apiCaller(
  () => t.app,
  () => admin,
);
// Ausgrid holds 4102xxxxxx; the checksum digit of this one, and a wrong one.
const AUSGRID_NMI = "4102123456";
const good = `${AUSGRID_NMI}${nmiChecksum(AUSGRID_NMI)}`;
const badChecksum = `${AUSGRID_NMI}${(nmiChecksum(AUSGRID_NMI) + 1) % 10}`;

type Refusal = { data: { fields: { field: string; message: string }[] } };

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app);
  australian = (await registerDevice(t.db, { sn: uniqueSerial("AUNMI") })).sn;
  italian = (await registerDevice(t.db, { sn: uniqueSerial("ITNMI") })).sn;
  await t.db.query("UPDATE device SET country_code = 3 WHERE sn = $1", [australian]);
  await t.db.query("UPDATE device SET country_code = 1 WHERE sn = $1", [italian]);
}, 60_000);
afterAll(() => t.close());

describe("a device's NMI and grid company", () => {
  it("lists the distribution network operators as published", async () => {
    const answer = await as<{ key: string; name: string; jurisdiction: string }[]>("GET", "/admin/powerGrid/getPowerGridList");
    expect(answer.status).toBe(200);
    expect(answer.body.data).toContainEqual({ key: "ausgrid", name: "Ausgrid", jurisdiction: "NSW" });
    expect(answer.body.data.length).toBeGreaterThanOrEqual(10);
  });

  it("refuses a wrong checksum at the NMI field, in the caller's language", async () => {
    for (const [language, label] of [
      ["en-US", "NMI number"],
      ["zh-CN", "NMI编号"],
    ] as const) {
      const answer = await as<unknown>(
        "POST",
        "/admin/powerGrid/save",
        { sn: australian, powerGrid: "", nmi: badChecksum },
        { language },
      );
      expect(answer.status).toBe(400);
      const fields = (answer.body as unknown as Refusal).data.fields;
      expect(fields.map((f) => f.field)).toEqual(["nmi"]);
      expect(fields[0]?.message).toContain(label);
    }
    const en = await as<unknown>("POST", "/admin/powerGrid/save", { sn: australian, powerGrid: "", nmi: badChecksum });
    expect(en.body.msg).toMatch(/checksum/);
  });

  it("refuses a grid company other than the NMI's network, naming that network", async () => {
    for (const [language, label] of [
      ["en-US", "Grid company"],
      ["zh-CN", "电网公司"],
    ] as const) {
      const answer = await as<unknown>(
        "POST",
        "/admin/powerGrid/save",
        { sn: australian, powerGrid: "Energex", nmi: good },
        { language },
      );
      expect(answer.status).toBe(400);
      const fields = (answer.body as unknown as Refusal).data.fields;
      expect(fields.map((f) => f.field)).toEqual(["powerGrid"]);
      expect(fields[0]?.message).toContain(label);
      expect(fields[0]?.message).toContain("Ausgrid");
    }
  });

  it("refuses a device outside Australia", async () => {
    for (const [language, phrase] of [
      ["en-US", "only Australian devices"],
      ["zh-CN", "只有澳大利亚设备"],
    ] as const) {
      const answer = await as<unknown>(
        "POST",
        "/admin/powerGrid/save",
        { sn: italian, powerGrid: "Ausgrid", nmi: good },
        { language },
      );
      expect(answer.status).toBe(400);
      const fields = (answer.body as unknown as Refusal).data.fields;
      expect(fields.map((f) => f.field)).toEqual(["sn"]);
      expect(fields[0]?.message).toContain(phrase);
    }
    const stored = await t.db.query("SELECT nmi, grid_company FROM device WHERE sn = $1", [italian]);
    expect(stored.rows[0]).toEqual({ nmi: "", grid_company: "" });
  });

  it("saves a valid NMI with its checksum and the network's name, with an operation-log line", async () => {
    const answer = await as<{ sn: string; nmi: string; powerGrid: string }>("POST", "/admin/powerGrid/save", {
      sn: australian,
      powerGrid: "ausgrid",
      nmi: AUSGRID_NMI.toLowerCase(),
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ sn: australian, nmi: good, powerGrid: "Ausgrid" });
    const read = await as<{ nmi: string; powerGrid: string }>("GET", `/admin/powerGrid/get?sn=${australian}`);
    expect(read.body.data).toMatchObject({ nmi: good, powerGrid: "Ausgrid" });
    const log = await t.db.query<{ status: number; params: string }>(
      "SELECT status, params::text AS params FROM sys_log WHERE operation = 'powerGrid.save' ORDER BY id DESC LIMIT 1",
    );
    expect(log.rows[0]?.params).toContain(australian);
  });

  it("answers 404 for a device that does not exist", async () => {
    expect((await as("GET", "/admin/powerGrid/get?sn=NOSUCHDEVICE")).status).toBe(404);
  });
});
