import type { WriteRecord, WriteState } from "@ess/contracts";
import type { Queryable } from "../../db/db.ts";
import { rememberIdentitySettings } from "../devices/reported-identity.ts";

export interface WriteRow {
  id: number;
  tenant_id: number;
  device_id: number;
  bulk_id: number | null;
  kind: "setting" | "command";
  changes: { key: string; old: number | string | null; new: number | string }[];
  command: number | null;
  state: WriteState;
  refusal: string | null;
  refusal_key: string | null;
  attempts: number;
  created_by_name: string;
  created_at: Date;
  sent_at: Date | null;
  finished_at: Date | null;
  expires_at: Date | null;
  /** The order's request id while (and after) it was sent; its acknowledgement carries it. */
  request_id: number | null;
  /** While sent: when it ends timed out without an answer. */
  deadline_at: Date | null;
}

const COLUMNS = `id, tenant_id, device_id, bulk_id, kind, changes, command, state, refusal, refusal_key, attempts,
  created_by_name, created_at, sent_at, finished_at, expires_at, request_id, deadline_at`;

/** States a record can still leave; the others are final and never change again. */
export const OPEN_STATES: readonly WriteState[] = ["queued", "sent"];

export function toRecord(row: WriteRow, t: (key: string) => string): WriteRecord {
  return {
    id: row.id,
    deviceId: row.device_id,
    bulkId: row.bulk_id,
    kind: row.kind,
    changes: row.changes,
    command: row.command,
    state: row.state,
    refusal: row.refusal,
    refusalText: row.refusal_key ? t(row.refusal_key) : null,
    attempts: row.attempts,
    createdBy: row.created_by_name,
    createdAt: row.created_at.getTime(),
    sentAt: row.sent_at?.getTime() ?? null,
    finishedAt: row.finished_at?.getTime() ?? null,
  };
}

export interface NewWrite {
  tenantId: number;
  deviceId: number;
  bulkId: number | null;
  kind: "setting" | "command";
  changes: WriteRow["changes"];
  command: number | null;
  /** The user who asked; null for the console's own writes (a grid control), named by `createdByName`. */
  createdBy: number | null;
  createdByName: string;
  expiresAt: Date | null;
}

export async function insertWrites(db: Queryable, writes: readonly NewWrite[]): Promise<WriteRow[]> {
  if (writes.length === 0) return [];
  const { rows } = await db.query<WriteRow>(
    `INSERT INTO device_write (tenant_id, device_id, bulk_id, kind, changes, command, state, created_by, created_by_name, expires_at)
     SELECT w.tenant_id, w.device_id, w.bulk_id, w.kind, w.changes, w.command, 'queued', w.created_by, w.created_by_name, w.expires_at
       FROM jsonb_to_recordset($1::jsonb) AS w(tenant_id bigint, device_id bigint, bulk_id bigint, kind text, changes jsonb,
            command smallint, created_by bigint, created_by_name text, expires_at timestamptz)
     RETURNING ${COLUMNS}`,
    [
      JSON.stringify(
        writes.map((w) => ({
          tenant_id: w.tenantId,
          device_id: w.deviceId,
          bulk_id: w.bulkId,
          kind: w.kind,
          changes: w.changes,
          command: w.command,
          created_by: w.createdBy,
          created_by_name: w.createdByName,
          expires_at: w.expiresAt?.toISOString() ?? null,
        })),
      ),
    ],
  );
  return rows;
}

/**
 * Takes a queued write for sending (only one process or call wins it): a request id from the
 * sequence and the deadline by which the device must answer. `idle`: only while no other record
 * of the device is in flight, so that records sent one after the other (a device's queue) keep
 * their order whichever process sends them.
 */
export async function claimWrite(
  db: Queryable,
  id: number,
  answerWithinMs: number,
  options: { idle?: boolean } = {},
): Promise<WriteRow | undefined> {
  const { rows } = await db.query<WriteRow>(
    `UPDATE device_write w SET state = 'sent', sent_at = now(), attempts = attempts + 1,
            request_id = nextval('device_write_request_seq'), deadline_at = now() + make_interval(secs => $2::float8 / 1000)
      WHERE w.id = $1 AND w.state = 'queued'
        AND (NOT $3 OR NOT EXISTS (SELECT 1 FROM device_write s WHERE s.device_id = w.device_id AND s.state = 'sent'))
      RETURNING ${COLUMNS}`,
    [id, answerWithinMs, options.idle ?? false],
  );
  return rows[0];
}

/**
 * Moves a write on from one of the states `from` (by default any open one: a final record never
 * changes again, whoever tries); answers the row as it now is, or undefined when it was not in
 * one of them.
 */
export async function finishWrite(
  db: Queryable,
  id: number,
  state: "acknowledged" | "refused" | "timed_out" | "queued",
  refusal: string | null = null,
  refusalKey: string | null = null,
  from: readonly WriteState[] = OPEN_STATES,
): Promise<WriteRow | undefined> {
  const { rows } = await db.query<WriteRow>(
    `UPDATE device_write SET state = $2, refusal = $3, refusal_key = $4, deadline_at = NULL,
            finished_at = CASE WHEN $2 = 'queued' THEN NULL ELSE now() END
      WHERE id = $1 AND state = ANY($5::text[]) RETURNING ${COLUMNS}`,
    [id, state, refusal, refusalKey, from],
  );
  return rows[0];
}

/** The write a device's acknowledgement answers: its request id, sent to that device. */
export async function writeOfRequest(db: Queryable, sn: string, requestId: number): Promise<WriteRow | undefined> {
  const { rows } = await db.query<WriteRow>(
    `SELECT ${COLUMNS.split(",")
      .map((c) => `w.${c.trim()}`)
      .join(", ")} FROM device_write w JOIN device d ON d.id = w.device_id WHERE w.request_id = $1 AND d.sn = $2
      ORDER BY w.id DESC LIMIT 1`,
    [requestId, sn],
  );
  return rows[0];
}

export async function getWrite(db: Queryable, id: number): Promise<WriteRow | undefined> {
  return (await db.query<WriteRow>(`SELECT ${COLUMNS} FROM device_write WHERE id = $1`, [id])).rows[0];
}

/** The oldest queued write of a device (they are sent in the order they were made). */
export async function nextQueued(db: Queryable, deviceId: number): Promise<number | undefined> {
  const { rows } = await db.query<{ id: number }>(
    "SELECT id FROM device_write WHERE device_id = $1 AND state = 'queued' ORDER BY id LIMIT 1",
    [deviceId],
  );
  return rows[0]?.id;
}

export async function writesPage(
  db: Queryable,
  filter: { deviceId?: number; bulkId?: number; ids?: number[]; kind?: string | undefined },
  current: number,
  size: number,
): Promise<{ rows: (WriteRow & { sn: string })[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.deviceId !== undefined) where.push(`w.device_id = $${params.push(filter.deviceId)}`);
  if (filter.bulkId !== undefined) where.push(`w.bulk_id = $${params.push(filter.bulkId)}`);
  if (filter.kind) where.push(`w.kind = $${params.push(filter.kind)}`);
  if (filter.ids) where.push(`w.id = ANY($${params.push(filter.ids)}::bigint[])`);
  const clause = where.length ? `WHERE ${where.join(" AND ")}` : "";
  const total =
    (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM device_write w ${clause}`, params)).rows[0]?.n ?? 0;
  const { rows } = await db.query<WriteRow & { sn: string }>(
    `SELECT ${COLUMNS.split(",")
      .map((c) => `w.${c.trim()}`)
      .join(", ")}, d.sn FROM device_write w JOIN device d ON d.id = w.device_id ${clause}
      ORDER BY w.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, size, (current - 1) * size],
  );
  return { rows, total };
}

/** What the device last reported for these settings. */
export async function knownSettings(db: Queryable, deviceId: number): Promise<Record<string, number | string>> {
  const { rows } = await db.query<{ key: string; value: number | string }>(
    "SELECT key, value FROM device_setting_value WHERE device_id = $1",
    [deviceId],
  );
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

/** Keeps what a device reported of its settings; those that say what it is reach its record too. */
export async function rememberSettings(db: Queryable, deviceId: number, values: Record<string, number | string | null>) {
  const entries = Object.entries(values).filter((e): e is [string, number | string] => e[1] !== null);
  if (entries.length === 0) return;
  await rememberIdentitySettings(db, deviceId, values);
  await db.query(
    `INSERT INTO device_setting_value (device_id, key, value, updated_at)
     SELECT $1, e.key, e.value, now() FROM jsonb_each($2::jsonb) AS e(key, value)
     ON CONFLICT (device_id, key) DO UPDATE SET value = excluded.value, updated_at = now()`,
    [deviceId, JSON.stringify(Object.fromEntries(entries))],
  );
}
