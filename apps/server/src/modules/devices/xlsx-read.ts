import ExcelJS from "exceljs";
import { ValidationError } from "../../http/errors.ts";
import { unpackedSize } from "./zip-size.ts";

/** A workbook of the import's largest size (a few thousand rows) unpacks to well under this. */
const MAX_UNPACKED_BYTES = 20 * 1024 * 1024;
const MAX_ENTRIES = 1000;

/**
 * The first worksheet of an Excel workbook (.xlsx) as rows of cell texts, as the spreadsheet shows
 * them (numbers, shared and rich strings, formula results alike). Blank rows are kept, so reported
 * line numbers match the sheet's row numbers.
 */
export async function readXlsx(data: Buffer): Promise<string[][]> {
  const unpacked = unpackedSize(data);
  const refuse = (key: string) => new ValidationError([{ field: "content", key, values: { field: "content" } }]);
  if (!unpacked) throw refuse("devices:importUnreadable");
  if (unpacked.bytes > MAX_UNPACKED_BYTES || unpacked.entries > MAX_ENTRIES) throw refuse("devices:importUnpackedTooLarge");
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(data as unknown as ArrayBuffer);
  } catch {
    throw refuse("devices:importUnreadable");
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const rows: string[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row, number) => {
    const cells: string[] = [];
    for (let i = 1; i <= row.cellCount; i++) cells.push(row.getCell(i).text ?? "");
    rows[number - 1] = cells;
  });
  return Array.from(rows, (cells) => cells ?? []);
}
