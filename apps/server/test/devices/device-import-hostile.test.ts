import { DEVICE_IMPORT_COLUMNS } from "@ess/domain";
import ExcelJS from "exceljs";
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, type TestApp } from "../helpers/test-app.ts";
import { type CraftedEntry, craftZip, deflatedEntry, deflatedRepeat, storedEntry } from "../helpers/zip-craft.ts";

let t: TestApp;
let token: string;
const count = async () => (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM device")).rows[0]?.n as number;
const post = async (file: Buffer, language: string) =>
  (
    await t.app.inject({
      method: "POST",
      url: "/admin/lsydevice/importExcel",
      headers: { authorization: `Bearer ${token}`, "accept-language": language },
      payload: { fileName: "devices.xlsx", format: "xlsx", content: file.toString("base64") },
    })
  ).json();

/** The parts of a real workbook with two good device rows, to hide something among. */
async function realParts(): Promise<CraftedEntry[]> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet("Devices");
  sheet.addRow([...DEVICE_IMPORT_COLUMNS]);
  sheet.addRow(["HOSTILE0001", "Garage", "H6K"]);
  sheet.addRow(["HOSTILE0002", "Barn", "H6K"]);
  const zip = await JSZip.loadAsync(Buffer.from(await book.xlsx.writeBuffer()));
  const parts: CraftedEntry[] = [];
  for (const file of Object.values(zip.files)) {
    if (!file.dir) parts.push(deflatedEntry(file.name, await file.async("nodebuffer")));
  }
  return parts;
}

/** What the server's own heap holds (the test app runs in this process). */
const heldBytes = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};

beforeAll(async () => {
  t = await createTestApp();
  token = await signIn(t.app);
}, 120_000);
afterAll(() => t.close());

describe("hostile workbooks are refused while they unpack, whatever their headers say", () => {
  it("reads a real workbook rebuilt by the test's archive writer (the control)", async () => {
    const answer = await post(craftZip(await realParts()), "en-US");
    expect(answer).toMatchObject({ code: 0, data: { succeeded: 2, failed: 0 } });
    await t.db.query("DELETE FROM device WHERE sn LIKE 'HOSTILE%'");
  });

  const cases: [string, () => Promise<Buffer>, string, string][] = [
    [
      "a sheet whose headers say 4 kB and that inflates to 100 MB",
      async () => {
        const parts = await realParts();
        const sheet = await deflatedRepeat("xl/worksheets/sheet1.xml", "<row/>", 100 * 1024 * 1024);
        const lying = { ...sheet, claimedSize: 4096 };
        return craftZip(parts.map((p) => (p.name === "xl/worksheets/sheet1.xml" ? lying : p)));
      },
      "it",
      "Il file di importazione non è una cartella di lavoro Excel (.xlsx) leggibile",
    ],
    [
      "5,000 parts",
      async () => {
        const filler = Array.from({ length: 5000 }, (_, i) => storedEntry(`xl/media/p${i}.bin`, Buffer.from([i & 255])));
        return craftZip([...(await realParts()), ...filler]);
      },
      "es",
      "El libro contiene más de 1000 partes; guarde solo la hoja e impórtela de nuevo",
    ],
    [
      "a sheet of 10 MB packed a thousand to one, honestly declared",
      async () => {
        const parts = await realParts();
        const sheet = await deflatedRepeat("xl/worksheets/sheet1.xml", " ", 10 * 1024 * 1024);
        return craftZip(parts.map((p) => (p.name === "xl/worksheets/sheet1.xml" ? sheet : p)));
      },
      "en-US",
      "The workbook's content is compressed more than 100 to 1, which no spreadsheet is; save it again from a spreadsheet program",
    ],
    [
      "25 parts of 1 MB each, each under the ratio's floor, 25 MB in all",
      async () => {
        const pieces = await Promise.all(
          Array.from({ length: 25 }, (_, i) => deflatedRepeat(`xl/media/image${i}.bin`, "x", 1024 * 1024 - 1)),
        );
        return craftZip([...(await realParts()), ...pieces]);
      },
      "ja",
      "このブックは展開すると 20 MB を超えます。小さいファイルに分割してください",
    ],
    [
      "an archive inside the workbook (a zip bomb that would never be unpacked, so never counted)",
      async () => {
        const bomb = craftZip([await deflatedRepeat("inner.xml", "0", 50 * 1024 * 1024)]);
        return craftZip([...(await realParts()), storedEntry("xl/embeddings/oleObject1.bin", bomb)]);
      },
      "zh-CN",
      "该工作簿内嵌了压缩包，请只保存工作表后重新导入",
    ],
  ];

  it.each(cases)(
    "refuses %s, in the caller's language, importing nothing and keeping no memory",
    async (_, make, language, message) => {
      const file = await make();
      expect(file.length).toBeLessThan(675_000);
      const before = await count();
      const held = heldBytes();
      const answer = await post(file, language);
      expect(answer).toMatchObject({ code: 1, data: { fields: [{ field: "content" }] } });
      expect(answer.msg).toContain(message);
      expect(await count()).toBe(before);
      // The inflated bytes never reach this process's heap: the worker that counted them is gone.
      expect(heldBytes() - held).toBeLessThan(32 * 1024 * 1024);
    },
  );
});
