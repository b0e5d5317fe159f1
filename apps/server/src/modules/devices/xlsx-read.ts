import ExcelJS from "exceljs";
import { ValidationError } from "../../http/errors.ts";

/**
 * The first worksheet of an Excel workbook (.xlsx) as rows of cell texts, as the spreadsheet shows
 * them (numbers, shared and rich strings, formula results alike). Blank rows are kept, so reported
 * line numbers match the sheet's row numbers.
 */
export async function readXlsx(data: Buffer): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(data as unknown as ArrayBuffer);
  } catch {
    throw new ValidationError([{ field: "content", key: "devices:importUnreadable", values: { field: "content" } }]);
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
