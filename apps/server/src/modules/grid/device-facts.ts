import type { Db } from "../../db/db.ts";
import { type DerFacts, STORAGE_HOURS } from "./der-descriptions.ts";

/** What the grid client reads of a device: its ratings and state, and its telemetry averaged over an interval. */

/** Averages of a device's telemetry over one post interval (W, V, %); null where no sample had the value. */
export interface IntervalAverages {
  samples: number;
  sitePowerW: number | null;
  derPowerW: number | null;
  voltageV: number | null;
  socPercent: number | null;
}

/** Rated power when neither the device nor staff gave one: the smallest model's 5 kW. */
const FALLBACK_RATED_KW = 5;

export function createDeviceFacts(db: Db) {
  return {
    async facts(deviceId: number): Promise<DerFacts> {
      const { rows } = await db.query<{ rated: number | null; online: number; soc: number | null }>(
        `SELECT d.shown_rated_power AS rated, d.online_status AS online, h.battery_soc AS soc
           FROM device d
           LEFT JOIN device_latest l ON l.device_id = d.id
           LEFT JOIN telemetry_history h ON h.device_id = l.device_id AND h.ts = l.ts
          WHERE d.id = $1`,
        [deviceId],
      );
      const row = rows[0];
      const ratedPowerW = (row?.rated ?? FALLBACK_RATED_KW) * 1000;
      return {
        ratedPowerW,
        storageWh: ratedPowerW * STORAGE_HOURS,
        online: (row?.online ?? 0) !== 0,
        socPercent: row?.soc ?? null,
      };
    },

    /** Samples with from < ts ≤ to: a reading stamped at the interval's end belongs to it. */
    async averages(deviceId: number, from: Date, to: Date): Promise<IntervalAverages> {
      const { rows } = await db.query<{
        n: number;
        site: number | null;
        der: number | null;
        v: number | null;
        soc: number | null;
      }>(
        `SELECT count(*)::int AS n, avg(grid_power)::float8 AS site, avg(inverter_power)::float8 AS der,
                avg(grid_voltage)::float8 AS v, avg(battery_soc)::float8 AS soc
           FROM telemetry_history WHERE device_id = $1 AND ts > $2 AND ts <= $3`,
        [deviceId, from, to],
      );
      const row = rows[0];
      return {
        samples: row?.n ?? 0,
        sitePowerW: row?.site ?? null,
        derPowerW: row?.der ?? null,
        voltageV: row?.v ?? null,
        socPercent: row?.soc ?? null,
      };
    },
  };
}

export type DeviceFacts = ReturnType<typeof createDeviceFacts>;
