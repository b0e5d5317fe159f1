import type { ControlDevice, ControlTarget } from "@ess/domain";
import { FOUR_WIRE, SETTING_RULE_REGISTERS } from "@ess/domain";
import type { Queryable } from "../../db/db.ts";
import { refusalKey } from "../settings/device-writer.ts";
import type { WriteRow } from "../settings/write-records.repository.ts";
import { FALLBACK_RATED_KW } from "./device-facts.ts";

/** What a control last held a device to (`applied`), as migration 0270 keeps it. */
export interface AppliedTarget {
  settings: Record<string, number>;
  power: "off" | null;
}

export interface DeviceControlRow {
  device_id: number;
  applied: AppliedTarget | null;
  own_values: Record<string, number | string | null>;
  own_running: boolean | null;
  write_ids: number[];
  not_applicable: ControlTarget["notApplicable"];
}

const CONTROL_COLUMNS =
  "device_id::int AS device_id, applied, own_values, own_running, write_ids::int[] AS write_ids, not_applicable";

/** A device as the applier needs it: who it is, whether it is online, and what `controlTarget` reads. */
export interface ControlledDevice extends ControlDevice {
  id: number;
  sn: string;
  tenantId: number;
  onlineStatus: 0 | 1 | 2;
}

/**
 * The device with its rating (its own or staff-given, else the smallest model's), the battery
 * voltage of its newest reading and, three-phase, whether it is wired four-wire.
 */
export async function controlledDevice(db: Queryable, deviceId: number): Promise<ControlledDevice | undefined> {
  const { rows } = await db.query<{
    sn: string;
    tenant_id: number;
    phase_type: number | null;
    online_status: 0 | 1 | 2;
    rated: number | null;
    battery_v: number | null;
    wiring: unknown;
  }>(
    `SELECT d.sn, d.tenant_id::int AS tenant_id, d.phase_type, d.online_status, d.shown_rated_power AS rated,
            h.battery_voltage AS battery_v, w.value AS wiring
       FROM device d
       LEFT JOIN device_latest l ON l.device_id = d.id
       LEFT JOIN telemetry_history h ON h.device_id = l.device_id AND h.ts = l.ts
       LEFT JOIN device_setting_value w ON w.device_id = d.id AND w.key = $2
      WHERE d.id = $1`,
    [deviceId, SETTING_RULE_REGISTERS.three.wiring],
  );
  const r = rows[0];
  if (!r) return undefined;
  const product = r.phase_type === 1 ? "single" : "three";
  return {
    id: deviceId,
    sn: r.sn,
    tenantId: r.tenant_id,
    onlineStatus: r.online_status,
    product,
    ratedW: (r.rated && r.rated > 0 ? r.rated : FALLBACK_RATED_KW) * 1000,
    batteryV: r.battery_v && r.battery_v > 0 ? r.battery_v : null,
    fourWire: product === "three" && Number(r.wiring) === FOUR_WIRE,
  };
}

/** The device's control row, locked until the transaction ends (made empty on first use). */
export async function lockDeviceControl(tx: Queryable, deviceId: number, tenantId: number): Promise<DeviceControlRow> {
  await tx.query("INSERT INTO grid_device_control (device_id, tenant_id) VALUES ($1, $2) ON CONFLICT (device_id) DO NOTHING", [
    deviceId,
    tenantId,
  ]);
  const { rows } = await tx.query<DeviceControlRow>(
    `SELECT ${CONTROL_COLUMNS} FROM grid_device_control WHERE device_id = $1 FOR UPDATE`,
    [deviceId],
  );
  return rows[0] as DeviceControlRow;
}

/** Keeps what the control now holds the device to, and marks the device under the grid's control or not. */
export async function saveDeviceControl(
  tx: Queryable,
  row: Omit<DeviceControlRow, "write_ids"> & { write_ids: number[] | null },
): Promise<void> {
  await tx.query(
    `UPDATE grid_device_control SET applied = $2, own_values = $3, not_applicable = $4,
            write_ids = coalesce($5::bigint[], write_ids), own_running = $6, updated_at = now()
      WHERE device_id = $1`,
    [
      row.device_id,
      JSON.stringify(row.applied),
      JSON.stringify(row.own_values),
      JSON.stringify(row.not_applicable),
      row.write_ids,
      row.own_running,
    ],
  );
  await tx.query("UPDATE device SET vpp_controlled = $2 WHERE id = $1", [row.device_id, row.applied !== null]);
}

/** Points the device's control at the writes that now carry its last change (one sent again). */
export async function setControlWrites(tx: Queryable, deviceId: number, writeIds: number[]): Promise<void> {
  await tx.query("UPDATE grid_device_control SET write_ids = $2::bigint[], updated_at = now() WHERE device_id = $1", [
    deviceId,
    writeIds,
  ]);
}

/** The device's control row and the states of the writes of its last change. */
export async function deviceControl(
  db: Queryable,
  deviceId: number,
): Promise<{ row: DeviceControlRow; writes: Pick<WriteRow, "id" | "state" | "refusal">[] } | undefined> {
  const { rows } = await db.query<DeviceControlRow>(`SELECT ${CONTROL_COLUMNS} FROM grid_device_control WHERE device_id = $1`, [
    deviceId,
  ]);
  const row = rows[0];
  if (!row) return undefined;
  const writes = await db.query<Pick<WriteRow, "id" | "state" | "refusal">>(
    "SELECT id::int AS id, state, refusal FROM device_write WHERE id = ANY($1::bigint[]) ORDER BY id",
    [row.write_ids],
  );
  return { row, writes: writes.rows };
}

/** The settings an active grid control holds on the device; null when no grid control is active. */
export async function settingsHeldByGrid(db: Queryable, deviceId: number): Promise<Set<string> | null> {
  const { rows } = await db.query<{ held: Record<string, number> | null }>(
    "SELECT applied->'settings' AS held FROM grid_device_control WHERE device_id = $1 AND applied IS NOT NULL",
    [deviceId],
  );
  const held = rows[0]?.held;
  return held ? new Set(Object.keys(held)) : null;
}

/**
 * The grid's write of `key` that began a control of it blind — its `old` is null only then (the
 * device's own value unknown; later writes of the same control know what they replace): the
 * latest such write of the device, and the writes since are that control's.
 */
const BLIND_START = `(SELECT max(f.id) FROM device_write f
   WHERE f.device_id = $1 AND f.created_by IS NULL AND f.created_by_name = $2 AND f.kind = 'setting'
     AND f.changes @> jsonb_build_array(jsonb_build_object('key', k.key, 'old', null)))`;

/**
 * Of `keys` (held by the grid's control, their own values unknown), those no write of that control
 * may have reached the device with: each still queued, refused, or ended unsent. What the device
 * holds of them is still its own.
 */
export async function keysNotYetWritten(
  db: Queryable,
  deviceId: number,
  keys: readonly string[],
  author: string,
): Promise<string[]> {
  const { rows } = await db.query<{ key: string }>(
    `SELECT k.key FROM unnest($3::text[]) AS k(key)
      WHERE ${BLIND_START} IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM device_write w
              WHERE w.device_id = $1 AND w.created_by IS NULL AND w.created_by_name = $2 AND w.kind = 'setting'
                AND w.id >= ${BLIND_START} AND w.changes @> jsonb_build_array(jsonb_build_object('key', k.key))
                AND (w.state IN ('sent', 'acknowledged') OR (w.state = 'timed_out' AND w.refusal = 'timeout')))`,
    [deviceId, author, keys],
  );
  return rows.map((r) => r.key);
}

/** Why a grid write was ended without being sent: its control ended first. */
export const CONTROL_ENDED = "controlEnded";

/**
 * Ends, unsent, the grid's queued writes of `released` (settings a control let go of whose own
 * values it never knew) made since it began writing them blind, unless they carry a setting the
 * control still holds (`held`): sent later, they would put the device under a limit of a control
 * that is over. A user's writes are never touched. Answers the ids of the writes ended.
 */
export async function endUnsentWrites(
  tx: Queryable,
  deviceId: number,
  released: readonly string[],
  held: readonly string[],
  author: string,
): Promise<number[]> {
  if (released.length === 0) return [];
  const { rows } = await tx.query<{ id: number }>(
    `UPDATE device_write w SET state = 'timed_out', refusal = $5, refusal_key = $6, finished_at = now(), deadline_at = NULL
      WHERE w.device_id = $1 AND w.state = 'queued' AND w.created_by IS NULL AND w.created_by_name = $2 AND w.kind = 'setting'
        AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(w.changes) c WHERE c->>'key' = ANY($4::text[]))
        AND EXISTS (SELECT 1 FROM unnest($3::text[]) AS k(key)
              WHERE w.changes @> jsonb_build_array(jsonb_build_object('key', k.key)) AND w.id >= ${BLIND_START})
      RETURNING w.id::int AS id`,
    [deviceId, author, released, held, CONTROL_ENDED, refusalKey(CONTROL_ENDED)],
  );
  return rows.map((r) => r.id);
}
