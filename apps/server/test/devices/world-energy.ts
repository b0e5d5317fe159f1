import type { Db } from "../../src/db/db.ts";

/** Daily energy rollups of a device, as the ingest would have merged them (kWh per flow). */
export async function addEnergyDay(
  db: Db,
  deviceId: number,
  day: string,
  e: { pv: number; load: number; buy: number; sell: number; charge?: number; discharge?: number },
) {
  await db.query(
    `INSERT INTO device_energy_daily (device_id, day, first_ts, last_ts, pv_day_last, load_day_last, buy_day_last,
                                      sell_day_last, charge_day_last, discharge_day_last)
     VALUES ($1, $2::date, $2::date + time '00:05', $2::date + time '23:55', $3, $4, $5, $6, $7, $8)`,
    [deviceId, day, e.pv, e.load, e.buy, e.sell, e.charge ?? 0, e.discharge ?? 0],
  );
}

/** Today's date in a time zone, as the board counts "today". */
export const todayIn = (timeZone: string) =>
  new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
