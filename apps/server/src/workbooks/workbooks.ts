import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { AppError, ValidationError } from "../http/errors.ts";
import { createWorkGate } from "../http/work-gate.ts";
import type { UnzipLimits } from "./bounded-unzip.ts";
import type { WorkbookAnswer, WorkbookJob, WorkbookRefusal } from "./workbook.worker.ts";

export const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/**
 * An uploaded workbook may unpack to this much, counted while it inflates. A workbook of the
 * import's largest size (5,000 rows) unpacks to about 2.5 MB in some fifteen parts, each packed
 * about ten to one.
 */
export const WORKBOOK_LIMITS: UnzipLimits = {
  maxEntries: 1000,
  maxBytes: 20 * 1024 * 1024,
  maxRatio: 100,
  ratioFloorBytes: 1024 * 1024,
};

const WORKER = new URL("./workbook.worker.ts", import.meta.url);
// Each job is a thread with its own heap (exceljs loaded anew, about a second): a few at a time,
// refused (429) past a short queue.
const gate = createWorkGate({ concurrency: Math.max(1, availableParallelism() - 1), queue: 20 });
const ROWS_PER_MESSAGE = 5000;

function runJob(job: WorkbookJob, options: { heapMb: number; timeoutMs: number; rows?: unknown[][] }) {
  return gate.run(
    () =>
      new Promise<WorkbookAnswer>((resolve, reject) => {
        const transfer = job.op === "read" ? [job.data.buffer as ArrayBuffer] : [];
        const worker = new Worker(WORKER, {
          workerData: job,
          transferList: transfer,
          resourceLimits: { maxOldGenerationSizeMb: options.heapMb },
        });
        const timer = setTimeout(() => {
          void worker.terminate();
          reject(new Error(`workbook job took longer than ${options.timeoutMs} ms`));
        }, options.timeoutMs);
        worker.once("message", (answer: WorkbookAnswer) => {
          clearTimeout(timer);
          void worker.terminate();
          resolve(answer);
        });
        worker.once("error", (error) => {
          clearTimeout(timer);
          reject(error);
        });
        worker.once("exit", (code) => {
          clearTimeout(timer);
          reject(new Error(`workbook worker exited with ${code}`));
        });
        // Rows go over in slices, so that copying 100,000 of them never holds the loop for long.
        if (options.rows) {
          const rows = options.rows;
          let at = 0;
          const next = () => {
            worker.postMessage({ rows: rows.slice(at, at + ROWS_PER_MESSAGE), end: at + ROWS_PER_MESSAGE >= rows.length });
            at += ROWS_PER_MESSAGE;
            if (at < rows.length) setImmediate(next);
          };
          next();
        }
      }),
  );
}

const REFUSALS: Record<WorkbookRefusal, [key: string, values?: Record<string, unknown>]> = {
  unreadable: ["devices:importUnreadable"],
  sheet: ["devices:importUnreadable"],
  bytes: ["devices:importUnpackedTooLarge"],
  entries: ["devices:importTooManyParts", { max: WORKBOOK_LIMITS.maxEntries }],
  ratio: ["devices:importOverCompressed", { ratio: WORKBOOK_LIMITS.maxRatio }],
  nested: ["devices:importNested"],
};

/**
 * The first worksheet of an uploaded Excel workbook (.xlsx) as rows of cell texts, as the
 * spreadsheet shows them (numbers, shared and rich strings, formula results alike). Blank rows are
 * kept, so reported line numbers match the sheet's row numbers. Unpacked and parsed in a worker
 * thread within WORKBOOK_LIMITS; a workbook past them, or one the worker cannot finish, is refused
 * naming `field`.
 */
export async function readWorkbook(data: Buffer, field = "content"): Promise<string[][]> {
  const refuse = (key: string, values: Record<string, unknown> = {}) =>
    new ValidationError([{ field, key, values: { field, ...values } }]);
  // The worker takes the bytes over (transferred, not copied): give it a copy of its own.
  const copy = new Uint8Array(data);
  let answer: WorkbookAnswer;
  try {
    answer = await runJob({ op: "read", data: copy, limits: WORKBOOK_LIMITS }, { heapMb: 256, timeoutMs: 60_000 });
  } catch (error) {
    if (error instanceof AppError) throw error;
    // Out of its heap or out of time: the file asked for more than a workbook of an import needs.
    throw refuse("devices:importUnpackedTooLarge");
  }
  if ("rows" in answer) return answer.rows;
  const [key, values] = REFUSALS["refused" in answer ? answer.refused : "unreadable"];
  throw refuse(key, values);
}

/**
 * One worksheet with a bold header row and the rows as they are (numbers stay numbers), written
 * in a worker thread: 100,000 rows take exceljs seconds, which would otherwise stall every request.
 */
export async function writeWorkbook(sheetName: string, header: string[], rows: unknown[][]): Promise<Buffer> {
  const answer = await runJob({ op: "write", sheetName, header }, { heapMb: 512, timeoutMs: 300_000, rows });
  if (!("file" in answer)) throw new Error("the workbook worker answered without a file");
  return Buffer.from(answer.file.buffer, answer.file.byteOffset, answer.file.byteLength);
}
