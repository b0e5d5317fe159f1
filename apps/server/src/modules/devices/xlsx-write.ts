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
  sheet.columns.forEach((column, i) => {
    const longest = Math.max(String(header[i] ?? "").length, ...rows.map((r) => String(r[i] ?? "").length));
    column.width = Math.min(40, Math.max(8, longest + 2));
  });
  sheet.views = [{ state: "frozen", ySplit: 1 }];
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
