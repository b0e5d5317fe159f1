import type { Db } from "../../db/db.ts";
import { createBatchedLoad } from "./batched-loads.ts";
import { type DerFacts, STORAGE_HOURS } from "./der-descriptions.ts";

/**
 * What the grid client reads of a device: its ratings and state, and its telemetry averaged over an
 * interval. Sites ask one device at a time; the reads of the sites asking together are one query.
 */

/** Averages of a device's telemetry over one post interval (W, var, V, %); null where no sample had the value. */
export interface IntervalAverages {
  samples: number;
  sitePowerW: number | null;
  siteReactiveVar: number | null;
  derPowerW: number | null;
  derReactiveVar: number | null;
  voltageV: number | null;
  socPercent: number | null;
}

/** Rated power when neither the device nor staff gave one: the smallest model's 5 kW. */
export const FALLBACK_RATED_KW = 5;

const NO_SAMPLES: IntervalAverages = {
  samples: 0,
  sitePowerW: null,
  siteReactiveVar: null,
  derPowerW: null,
  derReactiveVar: null,
  voltageV: null,
  socPercent: null,
};

function derFacts(row: { rated: number | null; online: number; soc: number | null } | undefined): DerFacts {
  const ratedPowerW = (row?.rated ?? FALLBACK_RATED_KW) * 1000;
  return {
    ratedPowerW,
    storageWh: ratedPowerW * STORAGE_HOURS,
    online: (row?.online ?? 0) !== 0,
    socPercent: row?.soc ?? null,
  };
}

export function createDeviceFacts(db: Db) {
  const facts = createBatchedLoad<number, DerFacts>(
    async (ids) => {
      const { rows } = await db.query<{ id: number; rated: number | null; online: number; soc: number | null }>(
        `SELECT d.id::int AS id, d.shown_rated_power AS rated, d.online_status AS online, h.battery_soc AS soc
           FROM device d
           LEFT JOIN device_latest l ON l.device_id = d.id
           LEFT JOIN telemetry_history h ON h.device_id = l.device_id AND h.ts = l.ts
          WHERE d.id = ANY($1::bigint[])`,
        [ids],
      );
      return new Map(rows.map((r) => [r.id, derFacts(r)]));
    },
    { missing: () => derFacts(undefined) },
  );

  /** Keys are `device|from|to` (ms): one query per interval for every device asking about it. */
  const averages = createBatchedLoad<string, IntervalAverages>(
    async (keys) => {
      const byInterval = new Map<string, number[]>();
      for (const key of keys) {
        const [device, ...interval] = key.split("|");
        const span = interval.join("|");
        const ids = byInterval.get(span) ?? [];
        ids.push(Number(device));
        byInterval.set(span, ids);
      }
      const found = new Map<string, IntervalAverages>();
      for (const [span, ids] of byInterval) {
        const [from, to] = span.split("|").map((ms) => new Date(Number(ms)));
        const { rows } = await db.query<{
          id: number;
          n: number;
          site: number | null;
          site_var: number | null;
          der: number | null;
          der_var: number | null;
          v: number | null;
          soc: number | null;
        }>(
          // Samples with from < ts ≤ to: a reading stamped at the interval's end belongs to it.
          `SELECT device_id::int AS id, count(*)::int AS n, avg(grid_power)::float8 AS site,
                  avg(grid_reactive_power)::float8 AS site_var, avg(inverter_power)::float8 AS der,
                  avg(inverter_reactive_power)::float8 AS der_var, avg(grid_voltage)::float8 AS v,
                  avg(battery_soc)::float8 AS soc
             FROM telemetry_history WHERE device_id = ANY($1::bigint[]) AND ts > $2 AND ts <= $3
            GROUP BY device_id`,
          [ids, from, to],
        );
        for (const r of rows)
          found.set(`${r.id}|${span}`, {
            samples: r.n,
            sitePowerW: r.site,
            siteReactiveVar: r.site_var,
            derPowerW: r.der,
            derReactiveVar: r.der_var,
            voltageV: r.v,
            socPercent: r.soc,
          });
      }
      return found;
    },
    { missing: () => NO_SAMPLES },
  );

  return {
    facts,
    averages: (deviceId: number, from: Date, to: Date) => averages(`${deviceId}|${from.getTime()}|${to.getTime()}`),
  };
}

export type DeviceFacts = ReturnType<typeof createDeviceFacts>;
