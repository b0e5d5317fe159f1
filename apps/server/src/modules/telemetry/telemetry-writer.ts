import { ENERGY_COUNTERS, KEY_QUANTITIES } from "@ess/domain";
import type { CopyType } from "../../db/copy-binary.ts";
import type { Tx } from "../../db/db.ts";
import type { DeviceRef } from "./device-directory.ts";
import type { ReportedVersions } from "./firmware-versions.ts";
import { localDay } from "./local-day.ts";

/** One validated reading, ready to store. */
export interface StoredFrame {
  device: DeviceRef;
  ts: number;
  seq: number;
  receivedAt: number;
  /** KEY_QUANTITIES order; null where missing or invalid. */
  kq: (number | null)[];
  /** The frame's block section (format 1), the device's words as sent, zero runs packed. */
  blocks: Buffer;
  /** Registers whose values failed validation. */
  invalid: string[] | null;
  /** The alarm and status words of the frame (domain ALARM_WORD_REGISTERS), for alarm detection. */
  words?: ReadonlyMap<string, number>;
  /** The firmware versions the reading carries (domain FIRMWARE_VERSION_REGISTERS). */
  versions?: ReportedVersions;
}

const KQ_COLUMNS = KEY_QUANTITIES.map((k) => k.column);
const sqlType = (column: string): "float8" | "int2" | "float4" =>
  column.endsWith("_total") ? "float8" : ["system_state", "system_mode", "battery_status"].includes(column) ? "int2" : "float4";
const kqIndex = (column: string) => KQ_COLUMNS.indexOf(column as (typeof KQ_COLUMNS)[number]);

export const HISTORY_COLUMNS = ["device_id", "ts", "seq", ...KQ_COLUMNS, "blocks", "invalid"];
// Binary COPY: the packed words go as they are (text COPY doubled them into hex) and PostgreSQL
// parses no decimals.
export const HISTORY_TYPES: CopyType[] = ["int8", "timestamptz", "int8", ...KQ_COLUMNS.map(sqlType), "bytea", "text[]"];

function historyRow(f: StoredFrame): unknown[] {
  return [f.device.id, f.ts, f.seq, ...f.kq, f.blocks, f.invalid];
}

/** unnest() of parameter arrays starting at $first, with the SQL types given. */
function unnestOf(types: readonly string[], names: readonly string[], first = 1): string {
  return `unnest(${types.map((t, i) => `$${first + i}::${t}[]`).join(", ")}) AS x(${names.join(", ")})`;
}

const HISTORY_FALLBACK_SQL = `
  INSERT INTO telemetry_history (${HISTORY_COLUMNS.join(", ")})
  SELECT device_id, to_timestamp(ts_ms / 1000.0), seq, ${KQ_COLUMNS.join(", ")}, decode(blocks, 'hex'),
         string_to_array(invalid, ',')
    FROM ${unnestOf(
      ["int8", "float8", "int8", ...KQ_COLUMNS.map(sqlType), "text", "text"],
      ["device_id", "ts_ms", "seq", ...KQ_COLUMNS, "blocks", "invalid"],
    )}
  ON CONFLICT (device_id, ts) DO NOTHING`;

// For each counter: the daily counter at the last reading and the total at the first and last.
const DAILY_VALUE_COLUMNS = ENERGY_COUNTERS.flatMap((c) => [`${c}_day_last`, `${c}_total_first`, `${c}_total_last`]);
const firstOrLast = (column: string) => (column.endsWith("_total_first") ? "first" : "last");
// The latest-state pointers ($1–$4) and the daily energy merge, one statement: one round trip.
const LATEST_AND_DAILY_SQL = `
  WITH latest AS (
    INSERT INTO device_latest AS l (device_id, ts, seq, received_at)
    SELECT device_id, to_timestamp(ts_ms / 1000.0), seq, to_timestamp(received_ms / 1000.0)
      FROM ${unnestOf(["int8", "float8", "int8", "float8"], ["device_id", "ts_ms", "seq", "received_ms"])}
    ON CONFLICT (device_id) DO UPDATE SET ts = EXCLUDED.ts, seq = EXCLUDED.seq, received_at = EXCLUDED.received_at
    WHERE l.ts < EXCLUDED.ts
  )
  INSERT INTO device_energy_daily AS d (device_id, day, first_ts, last_ts, ${DAILY_VALUE_COLUMNS.join(", ")})
  SELECT device_id, day, to_timestamp(first_ms / 1000.0), to_timestamp(last_ms / 1000.0), ${DAILY_VALUE_COLUMNS.join(", ")}
    FROM ${unnestOf(
      ["int8", "date", "float8", "float8", ...DAILY_VALUE_COLUMNS.map(() => "float8")],
      ["device_id", "day", "first_ms", "last_ms", ...DAILY_VALUE_COLUMNS],
      5,
    )}
  ON CONFLICT (device_id, day) DO UPDATE SET
    first_ts = least(d.first_ts, EXCLUDED.first_ts),
    last_ts = greatest(d.last_ts, EXCLUDED.last_ts),
    ${DAILY_VALUE_COLUMNS.map((c) =>
      firstOrLast(c) === "first"
        ? `${c} = CASE WHEN EXCLUDED.first_ts < d.first_ts THEN coalesce(EXCLUDED.${c}, d.${c}) ELSE coalesce(d.${c}, EXCLUDED.${c}) END`
        : `${c} = CASE WHEN EXCLUDED.last_ts > d.last_ts THEN coalesce(EXCLUDED.${c}, d.${c}) ELSE coalesce(d.${c}, EXCLUDED.${c}) END`,
    ).join(",\n    ")}`;

/** Column-wise parameter arrays of frames for the set-based history insert. */
function historyColumns(frames: readonly StoredFrame[]): unknown[][] {
  const out: unknown[][] = [frames.map((f) => f.device.id), frames.map((f) => f.ts), frames.map((f) => f.seq)];
  KQ_COLUMNS.forEach((_, i) => {
    out.push(frames.map((f) => f.kq[i] ?? null));
  });
  out.push(frames.map((f) => f.blocks.toString("hex")));
  out.push(frames.map((f) => (f.invalid && f.invalid.length > 0 ? f.invalid.join(",") : null)));
  return out;
}

/**
 * The newest frame of each device, in device order: concurrent batches then lock the rows of
 * device_latest in the same order and cannot deadlock.
 */
export function newestPerDevice(frames: readonly StoredFrame[]): StoredFrame[] {
  const newest = new Map<number, StoredFrame>();
  for (const f of frames) {
    const seen = newest.get(f.device.id);
    if (!seen || f.ts > seen.ts) newest.set(f.device.id, f);
  }
  return [...newest.values()].sort((a, b) => a.device.id - b.device.id);
}

/** First and last frame of each device and local day. */
function dailyGroups(frames: readonly StoredFrame[]) {
  const groups = new Map<string, { deviceId: number; day: string; first: StoredFrame; last: StoredFrame }>();
  for (const f of frames) {
    const day = localDay(f.ts, f.device.timeZone);
    const key = `${f.device.id}|${day}`;
    const g = groups.get(key);
    if (!g) groups.set(key, { deviceId: f.device.id, day, first: f, last: f });
    else {
      if (f.ts < g.first.ts) g.first = f;
      if (f.ts > g.last.ts) g.last = f;
    }
  }
  return [...groups.values()].sort((a, b) => a.deviceId - b.deviceId || (a.day < b.day ? -1 : 1));
}

function dailyParams(frames: readonly StoredFrame[]): unknown[][] {
  const groups = dailyGroups(frames);
  const out: unknown[][] = [
    groups.map((g) => g.deviceId),
    groups.map((g) => g.day),
    groups.map((g) => g.first.ts),
    groups.map((g) => g.last.ts),
  ];
  for (const c of ENERGY_COUNTERS) {
    const today = kqIndex(`${c}_today`);
    const total = kqIndex(`${c}_total`);
    out.push(groups.map((g) => g.last.kq[today] ?? null));
    out.push(groups.map((g) => g.first.kq[total] ?? null));
    out.push(groups.map((g) => g.last.kq[total] ?? null));
  }
  return out;
}

/** A batch repeats a reading already stored (a redelivery): write it again with `mayRepeat`. */
export class RepeatedReadingError extends Error {}

/**
 * Stores a batch in the caller's transaction: history by COPY, the latest state, and the daily
 * energy. A batch that repeats a stored reading makes the COPY fail with RepeatedReadingError
 * (the transaction is then lost); written again with `mayRepeat`, it goes through a set-based
 * insert that skips what is stored. No savepoint around the COPY: it cost two round trips and a
 * subtransaction per batch for the rare redelivery. Latest and daily merges only move forward,
 * so a repeated reading changes neither. Returns how many frames were already stored.
 */
export async function writeFrames(
  tx: Tx,
  frames: readonly StoredFrame[],
  options: { mayRepeat?: boolean } = {},
): Promise<{ duplicates: number }> {
  if (frames.length === 0) return { duplicates: 0 };
  let duplicates = 0;
  if (options.mayRepeat) {
    const inserted = await tx.query(HISTORY_FALLBACK_SQL, historyColumns(frames));
    duplicates = frames.length - inserted.rowCount;
  } else {
    try {
      await tx.copyRows("telemetry_history", HISTORY_COLUMNS, frames.map(historyRow), HISTORY_TYPES);
    } catch (error) {
      // 23505: unique violation on (device_id, ts).
      if ((error as { code?: string }).code === "23505") throw new RepeatedReadingError("a stored reading repeated");
      throw error;
    }
  }
  const newest = newestPerDevice(frames);
  await tx.query(LATEST_AND_DAILY_SQL, [
    newest.map((f) => f.device.id),
    newest.map((f) => f.ts),
    newest.map((f) => f.seq),
    newest.map((f) => f.receivedAt),
    ...dailyParams(frames),
  ]);
  return { duplicates };
}
