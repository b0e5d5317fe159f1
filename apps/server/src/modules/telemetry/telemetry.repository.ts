import { unpackZeroRuns } from "@ess/contracts";
import { KEY_QUANTITIES } from "@ess/domain";
import type { Queryable } from "../../db/db.ts";

const KQ_COLUMNS = KEY_QUANTITIES.map((k) => k.column);

export interface LatestRow {
  ts: Date;
  seq: number;
  received_at: Date;
  invalid: string[] | null;
  /** The reading's words (block section), unpacked. */
  words: Buffer;
  [column: string]: unknown;
}

/** The newest reading of a device: its history row, which device_latest points at. */
export async function latestOf(db: Queryable, deviceId: number): Promise<LatestRow | null> {
  const { rows } = await db.query<LatestRow & { blocks: Uint8Array }>(
    `SELECT l.ts, l.seq, l.received_at, h.invalid, h.blocks, ${KQ_COLUMNS.map((c) => `h.${c}`).join(", ")}
       FROM device_latest l JOIN telemetry_history h ON h.device_id = l.device_id AND h.ts = l.ts
      WHERE l.device_id = $1`,
    [deviceId],
  );
  const row = rows[0];
  return row ? { ...row, words: unpackZeroRuns(row.blocks) } : null;
}

export function quantitiesOf(row: Record<string, unknown>): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const c of KQ_COLUMNS) {
    const v = row[c];
    out[c] = typeof v === "number" ? Number(v.toFixed(4)) : null;
  }
  return out;
}

/**
 * Five-minute averages of one local day, from local midnight to the next (23 or 25 hours on a
 * daylight-saving change), from the history's key columns.
 */
export async function dayCurve(db: Queryable, deviceId: number, timeZone: string, day: string) {
  const { rows } = await db.query<{
    bucket: Date;
    pv_power: number | null;
    load_power: number | null;
    battery_power: number | null;
    grid_power: number | null;
    battery_soc: number | null;
  }>(
    `SELECT date_bin('5 minutes', ts, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS bucket,
            avg(pv_power) AS pv_power, avg(load_power) AS load_power, avg(battery_power) AS battery_power,
            avg(grid_power) AS grid_power, avg(battery_soc) AS battery_soc
       FROM telemetry_history
      WHERE device_id = $1
        AND ts >= ($2::date::timestamp AT TIME ZONE $3)
        AND ts < (($2::date + 1)::timestamp AT TIME ZONE $3)
      GROUP BY 1 ORDER BY 1`,
    [deviceId, day, timeZone],
  );
  const round = (v: number | null) => (v === null ? null : Math.round(Number(v) * 10) / 10);
  return rows.map((r) => ({
    ts: r.bucket.getTime(),
    pvPower: round(r.pv_power),
    loadPower: round(r.load_power),
    batteryPower: round(r.battery_power),
    gridPower: round(r.grid_power),
    batterySoc: round(r.battery_soc),
  }));
}

const PERIOD = { "0": "YYYY-MM-DD", "1": "YYYY-MM", "2": "YYYY" } as const;

/** kWh per local day, month or year between two local days (inclusive). */
export async function energyRecords(db: Queryable, deviceId: number, type: "0" | "1" | "2", startDate: string, endDate: string) {
  const { rows } = await db.query<Record<string, number | string>>(
    `SELECT to_char(day, '${PERIOD[type]}') AS period,
            sum(pv) AS pv, sum(load) AS load, sum(buy) AS buy, sum(sell) AS sell,
            sum(charge) AS charge, sum(discharge) AS discharge
       FROM device_energy_day
      WHERE device_id = $1 AND day BETWEEN $2::date AND $3::date
      GROUP BY 1 ORDER BY 1`,
    [deviceId, startDate, endDate],
  );
  const kwh = (v: unknown) => Math.round(Number(v ?? 0) * 100) / 100;
  return rows.map((r) => ({
    period: String(r.period),
    pv: kwh(r.pv),
    load: kwh(r.load),
    buy: kwh(r.buy),
    sell: kwh(r.sell),
    charge: kwh(r.charge),
    discharge: kwh(r.discharge),
  }));
}

export async function onlineLogPage(db: Queryable, deviceId: number, current: number, size: number) {
  const [{ rows }, total] = await Promise.all([
    db.query<{ at: Date; status: number; reason: "message" | "will" | "timeout" | "upgrade" }>(
      `SELECT at, status, reason FROM device_online_log WHERE device_id = $1 ORDER BY at DESC, id DESC LIMIT $2 OFFSET $3`,
      [deviceId, size, (current - 1) * size],
    ),
    db.query<{ n: number }>("SELECT count(*)::int AS n FROM device_online_log WHERE device_id = $1", [deviceId]),
  ]);
  return { records: rows.map((r) => ({ at: r.at.getTime(), status: r.status, reason: r.reason })), total: total.rows[0]?.n ?? 0 };
}
