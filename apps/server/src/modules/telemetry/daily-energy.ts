import { ENERGY_COUNTERS, KEY_QUANTITIES } from "@ess/domain";
import type { Tx } from "../../db/db.ts";
import { numberArray } from "../../db/number-array.ts";
import { localDay } from "./local-day.ts";

/**
 * A device's day as its readings describe it: the first and last reading times and, per energy
 * counter, the daily counter at the last reading and the total counter at the first and last.
 * Merging two of these keeps the earlier first and the later last, so merging the same readings
 * again changes nothing: a redelivered frame never counts twice.
 */
export interface DailyGroup {
  deviceId: number;
  day: string;
  firstTs: number;
  lastTs: number;
  /** DAILY_VALUE_COLUMNS order. */
  values: (number | null)[];
}

/** What a reading contributes: its device (id and time zone), time and key quantities. */
export interface EnergyReading {
  device: { id: number; timeZone: string };
  ts: number;
  /** KEY_QUANTITIES order. */
  kq: readonly (number | null)[];
}

export const DAILY_VALUE_COLUMNS = ENERGY_COUNTERS.flatMap((c) => [`${c}_day_last`, `${c}_total_first`, `${c}_total_last`]);
const KQ_COLUMNS: readonly string[] = KEY_QUANTITIES.map((k) => k.column);
/** Per value column: where its reading sits in the key quantities, and whether it is the first reading's. */
const SOURCES = ENERGY_COUNTERS.flatMap((c) => [
  { kq: KQ_COLUMNS.indexOf(`${c}_today`), first: false },
  { kq: KQ_COLUMNS.indexOf(`${c}_total`), first: true },
  { kq: KQ_COLUMNS.indexOf(`${c}_total`), first: false },
]);

/** The key-quantity columns a day is built from (for reading readings back from the history). */
export const ENERGY_KQ_COLUMNS = [...new Set(SOURCES.map((s) => KQ_COLUMNS[s.kq] as string))];

const keyOf = (deviceId: number, day: string) => `${deviceId}|${day}`;
/** Where each value column's figure sits: in a group's values, and in a reading's key quantities. */
const GROUP_INDEX = SOURCES.map((_, i) => i);
const READING_INDEX = SOURCES.map((s) => s.kq);

/**
 * Takes a day's first/last times and figures (`values[at[i]]` for value column i) into `seen`:
 * an earlier first or a later last replaces, anything else only fills what `seen` lacks.
 */
function absorb(seen: DailyGroup, firstTs: number, lastTs: number, values: readonly (number | null)[], at: readonly number[]) {
  const earlier = firstTs < seen.firstTs;
  const later = lastTs > seen.lastTs;
  for (let i = 0; i < SOURCES.length; i++) {
    const mine = seen.values[i] ?? null;
    const theirs = values[at[i] as number] ?? null;
    seen.values[i] = ((SOURCES[i] as (typeof SOURCES)[number]).first ? earlier : later) ? (theirs ?? mine) : (mine ?? theirs);
  }
  if (earlier) seen.firstTs = firstTs;
  if (later) seen.lastTs = lastTs;
}

/** Merges `g` into `into` (keyed by device and day), keeping earlier firsts and later lasts. */
export function mergeGroup(into: Map<string, DailyGroup>, g: DailyGroup): void {
  const key = keyOf(g.deviceId, g.day);
  const seen = into.get(key);
  if (seen) absorb(seen, g.firstTs, g.lastTs, g.values, GROUP_INDEX);
  else into.set(key, { ...g, values: [...g.values] });
}

/**
 * Adds readings to `into`, each to its device's day in the device's own time zone. A reading is
 * taken into its day in place (this runs for every stored frame).
 */
export function addReadings(into: Map<string, DailyGroup>, readings: Iterable<EnergyReading>): void {
  for (const r of readings) {
    const day = localDay(r.ts, r.device.timeZone);
    const key = keyOf(r.device.id, day);
    const seen = into.get(key);
    if (seen) absorb(seen, r.ts, r.ts, r.kq, READING_INDEX);
    else
      into.set(key, {
        deviceId: r.device.id,
        day,
        firstTs: r.ts,
        lastTs: r.ts,
        values: READING_INDEX.map((k) => r.kq[k] ?? null),
      });
  }
}

const MERGE_SQL = `
  INSERT INTO device_energy_daily AS d (device_id, day, first_ts, last_ts, ${DAILY_VALUE_COLUMNS.join(", ")})
  SELECT device_id, day, to_timestamp(first_ms / 1000.0), to_timestamp(last_ms / 1000.0), ${DAILY_VALUE_COLUMNS.join(", ")}
    FROM unnest($1::int8[], $2::date[], $3::float8[], $4::float8[], ${DAILY_VALUE_COLUMNS.map((_, i) => `$${i + 5}::float8[]`).join(", ")})
      AS x(device_id, day, first_ms, last_ms, ${DAILY_VALUE_COLUMNS.join(", ")})
  ON CONFLICT (device_id, day) DO UPDATE SET
    first_ts = least(d.first_ts, EXCLUDED.first_ts),
    last_ts = greatest(d.last_ts, EXCLUDED.last_ts),
    ${DAILY_VALUE_COLUMNS.map((c, i) =>
      SOURCES[i]?.first
        ? `${c} = CASE WHEN EXCLUDED.first_ts < d.first_ts THEN coalesce(EXCLUDED.${c}, d.${c}) ELSE coalesce(d.${c}, EXCLUDED.${c}) END`
        : `${c} = CASE WHEN EXCLUDED.last_ts > d.last_ts THEN coalesce(EXCLUDED.${c}, d.${c}) ELSE coalesce(d.${c}, EXCLUDED.${c}) END`,
    ).join(",\n    ")}`;

/**
 * Merges the groups into device_energy_daily, in device and day order so that two merges lock
 * rows in the same order and cannot deadlock.
 */
export async function writeDailyGroups(tx: Tx, groups: Iterable<DailyGroup>): Promise<number> {
  const rows = [...groups].sort((a, b) => a.deviceId - b.deviceId || (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  if (rows.length === 0) return 0;
  await tx.query(MERGE_SQL, [
    numberArray(rows.map((g) => g.deviceId)),
    rows.map((g) => g.day),
    numberArray(rows.map((g) => g.firstTs)),
    numberArray(rows.map((g) => g.lastTs)),
    ...DAILY_VALUE_COLUMNS.map((_, i) => numberArray(rows.map((g) => g.values[i]))),
  ]);
  return rows.length;
}
