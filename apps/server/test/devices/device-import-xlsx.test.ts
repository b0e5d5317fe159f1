import { DEVICE_IMPORT_COLUMNS } from "@ess/domain";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, type TestApp } from "../helpers/test-app.ts";

let t: TestApp;
let token: string;
const count = async () => (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM device")).rows[0]?.n as number;
const post = async (body: Record<string, unknown>, language = "en-US") =>
  (
    await t.app.inject({
      method: "POST",
      url: "/admin/lsydevice/importExcel",
      headers: { authorization: `Bearer ${token}`, "accept-language": language },
      payload: body,
    })
  ).json();

/** A workbook as a spreadsheet program writes one: shared strings, numbers as numbers, a styled header. */
async function workbook(rows: (string | number | null)[][]): Promise<string> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet("Devices");
  sheet.addRow([...DEVICE_IMPORT_COLUMNS]).font = { bold: true };
  for (const row of rows) sheet.addRow(row);
  // A second sheet is not read.
  book.addWorksheet("Notes").addRow(["sn", "name", "model"]).commit();
  return Buffer.from(await book.xlsx.writeBuffer()).toString("base64");
}

beforeAll(async () => {
  t = await createTestApp();
  token = await signIn(t.app);
  await t.db.query("INSERT INTO device (tenant_id, sn, name) VALUES (1, 'XLS0009', 'Registered before')");
}, 120_000);
afterAll(() => t.close());

describe("importing devices from an Excel workbook", () => {
  let content: string;
  beforeAll(async () => {
    content = await workbook([
      ["XLS0001", "Garage", "H6K", "Europe/Rome", 0, 0, 1, 6, 8, null, null, "first"],
      ["XLS0002", "Barn", "T12K", "Europe/Berlin", 1, 1, 2, 11.5, null, null, null, null],
      ["XLS0003", "Shed", "NOPE"],
      [],
      ["XLS0001", "Again", "H6K"],
      ["XLS0009", "Taken", "H6K"],
      ["XLS0004", "Bad dongle", "H6K", null, 7],
    ]);
  });

  it("reports every row with its reasons, by the sheet's row numbers, and registers only the good ones", async () => {
    const before = await count();
    const answer = await post({ fileName: "devices.xlsx", format: "xlsx", content });
    expect(answer.code).toBe(0);
    const { succeeded, failed, rows } = answer.data;
    expect({ succeeded, failed }).toEqual({ succeeded: 2, failed: 4 });
    const byLine = new Map(rows.map((r: { line: number }) => [r.line, r]));
    expect(byLine.get(2)).toMatchObject({ sn: "XLS0001", ok: true });
    expect(byLine.get(3)).toMatchObject({ sn: "XLS0002", ok: true });
    expect(byLine.get(4)).toMatchObject({ ok: false, reasons: ["Unknown model"] });
    expect(byLine.has(5)).toBe(false);
    expect(byLine.get(6)).toMatchObject({ ok: false, reasons: ["SN code repeats line 2"] });
    expect(byLine.get(7)).toMatchObject({ ok: false, reasons: ["This SN code is already registered"] });
    expect(byLine.get(8)).toMatchObject({ ok: false });
    expect(await count()).toBe(before + 2);
    const { rows: barn } = await t.db.query(
      "SELECT model, rated_power, dongle_type, country_code FROM device WHERE sn = 'XLS0002'",
    );
    // Numeric cells arrive as the numbers they are.
    expect(barn[0]).toMatchObject({ model: "H3-12K", rated_power: 11.5, dongle_type: 1, country_code: 2 });
    const { rows: taken } = await t.db.query("SELECT name FROM device WHERE sn = 'XLS0009'");
    expect(taken[0]).toMatchObject({ name: "Registered before" });
  });

  it("registers nothing twice when the same workbook is imported again", async () => {
    const before = await count();
    const answer = await post({ fileName: "devices.xlsx", format: "xlsx", content });
    expect(answer.data.succeeded).toBe(0);
    expect(await count()).toBe(before);
  });

  it("refuses a file that is not a workbook, and a workbook without the needed columns, in the caller's language", async () => {
    const bad = await post(
      { fileName: "devices.xlsx", format: "xlsx", content: Buffer.from("sn,name\r\n").toString("base64") },
      "it",
    );
    expect(bad).toMatchObject({ code: 1, data: { fields: [{ field: "content" }] } });
    expect(bad.msg).toContain("Excel");
    const book = new ExcelJS.Workbook();
    book.addWorksheet("S").addRow(["serial", "label"]);
    const headerless = Buffer.from(await book.xlsx.writeBuffer()).toString("base64");
    const answer = await post({ fileName: "x.xlsx", format: "xlsx", content: headerless });
    expect(answer.msg).toContain("sn, name, model");
  });
});
