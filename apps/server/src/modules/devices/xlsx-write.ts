import ExcelJS from "exceljs";

export const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/**
 * One worksheet: a bold header row, then the rows as they are (numbers stay numbers, so Excel
 * sums and sorts them); columns sized to their longest cell, at most 40 characters.
 */
export async function toXlsx(sheetName: string, header: string[], rows: unknown[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetName);
  sheet.addRow(header).font = { bold: true };
  for (const row of rows) sheet.addRow(row.map((v) => (v === null || v === undefined ? "" : v)));
  // One pass over the rows (an export holds up to 100,000; spreading them into Math.max per column
  // risks the engine's argument limit).
  const longest = header.map((h) => String(h).length);
  for (const row of rows) {
    row.forEach((v, i) => {
      longest[i] = Math.max(longest[i] ?? 0, String(v ?? "").length);
    });
  }
  sheet.columns.forEach((column, i) => {
    column.width = Math.min(40, Math.max(8, (longest[i] ?? 0) + 2));
  });
  sheet.views = [{ state: "frozen", ySplit: 1 }];
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
