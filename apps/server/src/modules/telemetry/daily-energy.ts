import { ENERGY_COUNTERS, KEY_QUANTITIES } from "@ess/domain";
import type { Tx } from "../../db/db.ts";
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

/** Merges `g` into `into` (keyed by device and day), keeping earlier firsts and later lasts. */
export function mergeGroup(into: Map<string, DailyGroup>, g: DailyGroup): void {
  const key = keyOf(g.deviceId, g.day);
  const seen = into.get(key);
  if (!seen) {
    into.set(key, { ...g, values: [...g.values] });
    return;
  }
  const earlier = g.firstTs < seen.firstTs;
  const later = g.lastTs > seen.lastTs;
  SOURCES.forEach((s, i) => {
    const mine = seen.values[i] ?? null;
    const theirs = g.values[i] ?? null;
    seen.values[i] = (s.first ? earlier : later) ? (theirs ?? mine) : (mine ?? theirs);
  });
  if (earlier) seen.firstTs = g.firstTs;
  if (later) seen.lastTs = g.lastTs;
}

/** Adds readings to `into`, each to its device's day in the device's own time zone. */
export function addReadings(into: Map<string, DailyGroup>, readings: Iterable<EnergyReading>): void {
  for (const r of readings) {
    const values = SOURCES.map((s) => r.kq[s.kq] ?? null);
    mergeGroup(into, { deviceId: r.device.id, day: localDay(r.ts, r.device.timeZone), firstTs: r.ts, lastTs: r.ts, values });
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
    rows.map((g) => g.deviceId),
    rows.map((g) => g.day),
    rows.map((g) => g.firstTs),
    rows.map((g) => g.lastTs),
    ...DAILY_VALUE_COLUMNS.map((_, i) => rows.map((g) => g.values[i] ?? null)),
  ]);
  return rows.length;
}
