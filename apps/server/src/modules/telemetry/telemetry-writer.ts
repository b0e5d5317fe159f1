import { KEY_QUANTITIES, type ReportedIdentity } from "@ess/domain";
import type { CopyType } from "../../db/copy-binary.ts";
import type { Tx } from "../../db/db.ts";
import { numberArray } from "../../db/number-array.ts";
import type { DeviceRef } from "./device-directory.ts";
import type { ReportedVersions } from "./reported-keeper.ts";

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
  /** The device marked the frame as sent late (kept while it was offline). */
  buffered?: boolean;
  /** The firmware versions the reading carries (domain FIRMWARE_VERSION_REGISTERS). */
  versions?: ReportedVersions;
  /** The model, rated power and country code the reading carries (domain IDENTITY_REGISTERS). */
  identity?: ReportedIdentity;
}

const KQ_COLUMNS = KEY_QUANTITIES.map((k) => k.column);
const sqlType = (column: string): "float8" | "int2" | "float4" =>
  column.endsWith("_total") ? "float8" : ["system_state", "system_mode", "battery_status"].includes(column) ? "int2" : "float4";

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

// The latest-state pointers ($1–$4) and the batch's notes of readings not yet in the daily energy
// and not yet applied to the alarms ($5–$7, see energy-rollup.ts and faults/alarm-detector.ts),
// one statement: one round trip.
const LATEST_AND_PENDING_SQL = `
  WITH latest AS (
    INSERT INTO device_latest AS l (device_id, ts, seq, received_at)
    SELECT device_id, to_timestamp(ts_ms / 1000.0), seq, to_timestamp(received_ms / 1000.0)
      FROM ${unnestOf(["int8", "float8", "int8", "float8"], ["device_id", "ts_ms", "seq", "received_ms"])}
    ON CONFLICT (device_id) DO UPDATE SET ts = EXCLUDED.ts, seq = EXCLUDED.seq, received_at = EXCLUDED.received_at
    WHERE l.ts < EXCLUDED.ts
  ), alarms AS (
    INSERT INTO alarm_detection_pending (id, device_ids, ts_ms) VALUES ($5, $6::int8[], $7::int8[])
  )
  INSERT INTO telemetry_rollup_pending (id, device_ids, ts_ms) VALUES ($5, $6::int8[], $7::int8[])`;

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

/** A batch repeats a reading already stored (a redelivery): write it again with `mayRepeat`. */
export class RepeatedReadingError extends Error {}

/**
 * Stores a batch in the caller's transaction: history by COPY, the latest state, and notes of the
 * batch's readings under `batchId` that stay until they are merged into the daily energy and
 * applied to the alarms. A batch that repeats a stored reading makes the COPY fail with RepeatedReadingError
 * (the transaction is then lost); written again with `mayRepeat`, it goes through a set-based
 * insert that skips what is stored. No savepoint around the COPY: it cost two round trips and a
 * subtransaction per batch for the rare redelivery. Latest and daily merges only move forward,
 * so a repeated reading changes neither. Returns how many frames were already stored.
 */
export async function writeFrames(
  tx: Tx,
  frames: readonly StoredFrame[],
  options: { batchId: string; mayRepeat?: boolean },
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
  await tx.query(LATEST_AND_PENDING_SQL, [
    numberArray(newest.map((f) => f.device.id)),
    numberArray(newest.map((f) => f.ts)),
    numberArray(newest.map((f) => f.seq)),
    numberArray(newest.map((f) => f.receivedAt)),
    options.batchId,
    numberArray(frames.map((f) => f.device.id)),
    numberArray(frames.map((f) => f.ts)),
  ]);
  return { duplicates };
}
