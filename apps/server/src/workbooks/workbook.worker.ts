/**
 * One spreadsheet job in its own thread, so neither unpacking nor parsing nor writing a workbook
 * holds the event loop, and what a hostile file makes the parser allocate goes when the thread
 * ends. Jobs: `read` (the first sheet's cell texts of an uploaded workbook) and `write` (one sheet
 * from rows that arrive in messages).
 */
import { PassThrough } from "node:stream";
import { parentPort, workerData } from "node:worker_threads";
import ExcelJS from "exceljs";
import JSZip from "jszip";
import { type UnzipLimits, UnzipRefused, unzipBounded } from "./bounded-unzip.ts";

export type WorkbookJob =
  | { op: "read"; data: Uint8Array; limits: UnzipLimits }
  | { op: "write"; sheetName: string; header: string[] };

export type WorkbookRefusal = UnzipRefused["reason"] | "sheet";

/** What the thread answers: cell texts, a file, or why an upload was refused. */
export type WorkbookAnswer = { rows: string[][] } | { file: Uint8Array } | { refused: WorkbookRefusal };

const port = parentPort;
if (!port) throw new Error("workbook.worker.ts runs as a worker thread");
const job = workerData as WorkbookJob;

async function read(data: Buffer, limits: UnzipLimits): Promise<WorkbookAnswer> {
  let files: Map<string, Buffer>;
  try {
    files = await unzipBounded(data, limits);
  } catch (error) {
    if (error instanceof UnzipRefused) return { refused: error.reason };
    throw error;
  }
  // exceljs unpacks on its own: it gets an archive of the bytes inflated above, stored as they
  // are, so nothing it reads can differ from what was counted.
  const stored = new JSZip();
  for (const [name, bytes] of files) stored.file(name, bytes);
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load((await stored.generateAsync({ type: "nodebuffer", compression: "STORE" })) as never);
  } catch {
    return { refused: "sheet" };
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return { rows: [] };
  const rows: string[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row, number) => {
    const cells: string[] = [];
    for (let i = 1; i <= row.cellCount; i++) cells.push(row.getCell(i).text ?? "");
    rows[number - 1] = cells;
  });
  return { rows: Array.from(rows, (cells) => cells ?? []) };
}

/**
 * One worksheet: a bold header row, then the rows as they are (numbers stay numbers, so Excel
 * sums and sorts them); columns sized to their longest cell, at most 40 characters. exceljs's
 * streaming writer keeps only the archive being written: 100,000 rows need about 30 MB of heap
 * instead of more than 700 MB for a workbook built whole.
 */
async function write(sheetName: string, header: string[]): Promise<WorkbookAnswer> {
  // The widths are written before the first row, so every row is in before any is written.
  const rows: unknown[][] = [];
  await new Promise<void>((resolve) => {
    port?.on("message", (message: { rows?: unknown[][]; end?: true }) => {
      for (const row of message.rows ?? []) rows.push(row);
      if (message.end) resolve();
    });
  });
  const longest = header.map((h) => String(h).length);
  for (const row of rows) {
    row.forEach((v, i) => {
      longest[i] = Math.max(longest[i] ?? 0, String(v ?? "").length);
    });
  }
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on("data", (chunk: Buffer) => chunks.push(chunk));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: "frozen", ySplit: 1 }] });
  sheet.columns = header.map((_, i) => ({ width: Math.min(40, Math.max(8, (longest[i] ?? 0) + 2)) }));
  const head = sheet.addRow(header);
  head.font = { bold: true };
  head.commit();
  for (const row of rows) sheet.addRow(row.map((v) => (v === null || v === undefined ? "" : v))).commit();
  sheet.commit();
  await workbook.commit();
  return { file: new Uint8Array(Buffer.concat(chunks)) };
}

const answer =
  job.op === "read"
    ? await read(Buffer.from(job.data.buffer, job.data.byteOffset, job.data.byteLength), job.limits)
    : await write(job.sheetName, job.header);
port.postMessage(answer, "file" in answer ? [answer.file.buffer as ArrayBuffer] : []);
port.close();
