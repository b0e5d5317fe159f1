import { decodeValues, frameFromStored, unpackZeroRuns } from "@ess/contracts";
import { type SelfCheckItemResult, selfCheckProgress, singlePhaseSelfCheckResult, threePhaseSelfCheckItems } from "@ess/domain";
import type { Queryable } from "../../db/db.ts";

/** A check's row as stored (`device_self_check`). */
export interface SelfCheckRow {
  id: number;
  device_id: number;
  started_by_name: string;
  started_at: Date;
  state: number;
  finished_at: Date | null;
  from_reading_ts: Date | null;
  items: SelfCheckItemResult[] | null;
  /** "timeout" when the device never reported the check's end (the sweep failed it). */
  cause: "timeout" | null;
}

/** The most readings one check is read from (a check reports one per item: about ten). */
const MAX_READINGS = 200;

/**
 * The device's readings during a check: after its newest reading when the check started (the
 * device's clock against itself; the console's start time only when it had none) up to `until`.
 */
async function readingsOf(db: Queryable, check: SelfCheckRow, until: Date | null) {
  const { rows } = await db.query<{ ts: Date; seq: number; blocks: Uint8Array }>(
    `SELECT ts, seq, blocks FROM telemetry_history
      WHERE device_id = $1 AND ts > $2 AND ($3::timestamptz IS NULL OR ts <= $3)
      ORDER BY ts LIMIT ${MAX_READINGS}`,
    [check.device_id, check.from_reading_ts ?? check.started_at, until],
  );
  return rows.map((r) => decodeValues(frameFromStored(r.ts.getTime(), r.seq, unpackZeroRuns(r.blocks))).values);
}

/**
 * What a check tested and each result: three-phase from its readings item by item; single-phase
 * (no item reported) as one result with the values of `last`, the reading it ended in.
 */
export async function itemsOfCheck(
  db: Queryable,
  check: SelfCheckRow,
  phaseType: 1 | 2 | null,
  state: number,
  until: Date | null,
  last: Record<string, unknown> | null,
): Promise<SelfCheckItemResult[]> {
  if (phaseType === 1) return singlePhaseSelfCheckResult(state === 1 ? null : last, state);
  return threePhaseSelfCheckItems(await readingsOf(db, check, until), state);
}

/** The record a route answers: stored items of an ended check, live ones of a running check. */
export async function selfCheckRecord(db: Queryable, row: SelfCheckRow, phaseType: 1 | 2 | null) {
  const items = row.state === 1 ? await itemsOfCheck(db, row, phaseType, 1, null, null) : (row.items ?? []);
  return {
    id: row.id,
    startedAt: row.started_at.getTime(),
    startedBy: row.started_by_name,
    state: row.state,
    finishedAt: row.finished_at?.getTime() ?? null,
    cause: row.cause,
    items,
    progress: row.state === 1 && phaseType !== 1 ? selfCheckProgress(items) : null,
  };
}
