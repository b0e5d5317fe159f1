import type { WriteRecord, WriteState } from "@ess/contracts";
import type { Queryable } from "../../db/db.ts";

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
}

const COLUMNS = `id, tenant_id, device_id, bulk_id, kind, changes, command, state, refusal, refusal_key, attempts,
  created_by_name, created_at, sent_at, finished_at, expires_at`;

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
  createdBy: number;
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

/** Takes a queued write for sending (only one process or call wins it). */
export async function claimWrite(db: Queryable, id: number): Promise<WriteRow | undefined> {
  const { rows } = await db.query<WriteRow>(
    `UPDATE device_write SET state = 'sent', sent_at = now(), attempts = attempts + 1
      WHERE id = $1 AND state = 'queued' RETURNING ${COLUMNS}`,
    [id],
  );
  return rows[0];
}

export async function finishWrite(
  db: Queryable,
  id: number,
  state: "acknowledged" | "refused" | "timed_out" | "queued",
  refusal: string | null = null,
  refusalKey: string | null = null,
): Promise<WriteRow | undefined> {
  const { rows } = await db.query<WriteRow>(
    `UPDATE device_write SET state = $2, refusal = $3, refusal_key = $4,
            finished_at = CASE WHEN $2 = 'queued' THEN NULL ELSE now() END
      WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, state, refusal, refusalKey],
  );
  return rows[0];
}

export async function getWrite(db: Queryable, id: number): Promise<WriteRow | undefined> {
  return (await db.query<WriteRow>(`SELECT ${COLUMNS} FROM device_write WHERE id = $1`, [id])).rows[0];
}

/** Queued writes of a device in the order they were made. */
export async function queuedOf(db: Queryable, deviceId: number): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    "SELECT id FROM device_write WHERE device_id = $1 AND state = 'queued' ORDER BY id",
    [deviceId],
  );
  return rows.map((r) => r.id);
}

/** Queued writes past their expiry end as timed out. */
export async function expireQueued(db: Queryable): Promise<WriteRow[]> {
  const { rows } = await db.query<WriteRow>(
    `UPDATE device_write SET state = 'timed_out', refusal = 'offlineExpired', refusal_key = 'settings:refusal.offlineExpired',
            finished_at = now()
      WHERE state = 'queued' AND expires_at IS NOT NULL AND expires_at < now() RETURNING ${COLUMNS}`,
  );
  return rows;
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

export async function rememberSettings(db: Queryable, deviceId: number, values: Record<string, number | string | null>) {
  const entries = Object.entries(values).filter((e): e is [string, number | string] => e[1] !== null);
  if (entries.length === 0) return;
  await db.query(
    `INSERT INTO device_setting_value (device_id, key, value, updated_at)
     SELECT $1, e.key, e.value, now() FROM jsonb_each($2::jsonb) AS e(key, value)
     ON CONFLICT (device_id, key) DO UPDATE SET value = excluded.value, updated_at = now()`,
    [deviceId, JSON.stringify(Object.fromEntries(entries))],
  );
}
