import { describeIssue, deviceCreate, type ImportResult, type IssuedCredential } from "@ess/contracts";
import { DEVICE_IMPORT_COLUMNS, DEVICE_IMPORT_MAX_ROWS } from "@ess/domain";
import type { Db } from "../../db/db.ts";
import { fieldMessage } from "../../http/error-handler.ts";
import { ValidationError } from "../../http/errors.ts";
import type { Translate } from "../../i18n/translator.ts";
import { issueDeviceCredential } from "../../mqtt/device-credentials.ts";
import { writeWorkbook } from "../../workbooks/workbooks.ts";
import { insertDevice } from "./device.service.ts";

const NUMERIC = new Set(["dongleType", "batteryType", "countryCode", "ratedPower", "loadCapacity"]);

/** The template: the column header and one example row. */
export function importTemplate(sheetName: string): Promise<Buffer> {
  const example = ["ESS0000000001", "Garage inverter", "H6K", "Europe/Rome", 0, 0, 1, 6, 8, "", "", ""];
  return writeWorkbook(sheetName, [...DEVICE_IMPORT_COLUMNS], [example]);
}

/**
 * Registers the devices of an import file (its rows of cells, CSV or Excel). Every row is checked on its own (schema, known model,
 * serial number not registered and not repeated in the file) and reported with its reasons;
 * the rows that pass are inserted in one transaction, a serial number registered meanwhile
 * turning its row into a failure. A failed row changes nothing, and importing the same file again
 * registers nothing twice (its rows then fail as duplicates). Each device registered is answered with
 * its broker secret, which the console never shows again.
 */
export async function importDevices(
  db: Db,
  t: Translate,
  target: { tenantId: number; orgId: number | null },
  table: readonly string[][],
): Promise<ImportResult> {
  const header = (table[0] ?? []).map((h) => h.trim());
  const missing = ["sn", "name", "model"].filter((c) => !header.includes(c));
  if (missing.length > 0) {
    throw new ValidationError([
      { field: "content", key: "devices:importHeader", values: { field: "content", columns: missing.join(", ") } },
    ]);
  }
  const lines = table
    .slice(1)
    .map((cells, i) => ({ line: i + 2, cells }))
    .filter((r) => r.cells.some((c) => c.trim() !== ""));
  if (lines.length === 0)
    throw new ValidationError([{ field: "content", key: "devices:importEmpty", values: { field: "content" } }]);
  if (lines.length > DEVICE_IMPORT_MAX_ROWS) {
    throw new ValidationError([
      { field: "content", key: "devices:importTooMany", values: { field: "content", max: DEVICE_IMPORT_MAX_ROWS } },
    ]);
  }

  const known = new Set(DEVICE_IMPORT_COLUMNS as readonly string[]);
  const parsed = lines.map(({ line, cells }) => {
    const raw: Record<string, unknown> = {};
    header.forEach((column, i) => {
      if (!known.has(column)) return;
      const value = (cells[i] ?? "").trim();
      raw[column] = NUMERIC.has(column) && value !== "" && Number.isFinite(Number(value)) ? Number(value) : value;
    });
    const result = deviceCreate.safeParse(raw);
    const problems = result.success ? [] : result.error.issues.map((issue) => describeIssue(issue));
    const reasons = problems
      .filter((p, i) => problems.findIndex((q) => q.field === p.field) === i)
      .map((p) => fieldMessage(t, p));
    return { line, sn: String(raw.sn ?? ""), data: result.success ? result.data : null, reasons };
  });

  // Serial numbers repeated in the file: the first occurrence counts, the others fail.
  const seen = new Map<string, number>();
  for (const row of parsed) {
    const key = row.sn.toUpperCase();
    if (!row.sn) continue;
    if (seen.has(key)) row.reasons.push(t("devices:duplicateInFile", { line: seen.get(key) }));
    else seen.set(key, row.line);
  }
  const candidates = parsed.filter((r) => r.reasons.length === 0).map((r) => r.sn);
  const { rows: taken } = await db.query<{ sn: string }>(
    "SELECT sn FROM device WHERE deleted_at IS NULL AND upper(sn) = ANY($1::text[])",
    [candidates.map((s) => s.toUpperCase())],
  );
  const takenSet = new Set(taken.map((r) => r.sn.toUpperCase()));
  for (const row of parsed)
    if (row.reasons.length === 0 && takenSet.has(row.sn.toUpperCase())) row.reasons.push(t("devices:duplicateSn"));

  // Each device registered gets its broker secret in the same transaction, answered once.
  const credentials: IssuedCredential[] = [];
  await db.transaction(async (tx) => {
    for (const row of parsed) {
      if (row.reasons.length > 0 || !row.data) continue;
      const id = await insertDevice(tx, target.tenantId, target.orgId, row.data.sn, row.data);
      if (id === null) row.reasons.push(t("devices:duplicateSn"));
      else credentials.push(await issueDeviceCredential(tx, { id, sn: row.data.sn }));
    }
  });

  const rows = parsed.map((r) => ({ line: r.line, sn: r.sn, ok: r.reasons.length === 0, reasons: r.reasons }));
  const succeeded = rows.filter((r) => r.ok).length;
  return { succeeded, failed: rows.length - succeeded, rows, credentials };
}
