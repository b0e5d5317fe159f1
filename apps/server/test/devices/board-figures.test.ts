import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { createTestApp, signIn, type TestApp } from "../helpers/test-app.ts";
import { todayIn } from "./world-energy.ts";

interface Board {
  today: { pv: number; buy: number; sell: number; load: number };
  total: { pv: number; buy: number; sell: number; load: number };
  co2Kg: number;
  installations: { byMonth: { month: string; count: number }[] };
}

/** A day of a device as ingest merges it: its daily counters, and its lifetime counters at the day's first and last reading. */
async function addDay(
  t: TestApp,
  deviceId: number,
  day: string,
  today: { pv: number; load: number; buy: number; sell: number },
  lifetime: { pv: number; load: number; buy: number; sell: number } | null,
) {
  const life = (k: keyof typeof today) => (lifetime ? [lifetime[k] - today[k], lifetime[k]] : [null, null]);
  await t.db.query(
    `INSERT INTO device_energy_daily (device_id, day, first_ts, last_ts, pv_day_last, load_day_last, buy_day_last, sell_day_last,
                                      pv_total_first, pv_total_last, load_total_first, load_total_last,
                                      buy_total_first, buy_total_last, sell_total_first, sell_total_last)
     VALUES ($1, $2::date, $2::date + time '00:05', $2::date + time '23:55', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    [deviceId, day, today.pv, today.load, today.buy, today.sell, ...life("pv"), ...life("load"), ...life("buy"), ...life("sell")],
  );
}

const monthsBack = (n: number) => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - n, 15)).toISOString().slice(0, 7);
};

/**
 * The data board's totals are lifetime figures from the devices' lifetime counters, not the days
 * the console happened to see; its installations per month show every one of the last twelve.
 */
describe("the data board's figures", () => {
  let t: TestApp;
  let board: Board;

  beforeAll(async () => {
    t = await createTestApp();
    const today = todayIn("UTC");
    // Two devices with years behind them before the console first heard of them …
    const old1 = await registerDevice(t.db, { sn: uniqueSerial("BL"), timeZone: "UTC" });
    const old2 = await registerDevice(t.db, { sn: uniqueSerial("BL"), timeZone: "UTC" });
    await addDay(
      t,
      old1.id,
      "2026-01-10",
      { pv: 20, load: 15, buy: 5, sell: 9 },
      { pv: 4_000, load: 3_000, buy: 800, sell: 1_500 },
    );
    await addDay(t, old1.id, today, { pv: 30, load: 18, buy: 2, sell: 12 }, { pv: 4_321.5, load: 3_210, buy: 845, sell: 1_612 });
    await addDay(t, old2.id, today, { pv: 12, load: 10, buy: 1, sell: 3 }, { pv: 2_500, load: 2_000, buy: 600, sell: 700 });
    // … and one that reports no lifetime counters: its days here are all there is.
    const plain = await registerDevice(t.db, { sn: uniqueSerial("BL"), timeZone: "UTC" });
    await addDay(t, plain.id, "2026-01-10", { pv: 7, load: 5, buy: 1, sell: 2 }, null);
    await addDay(t, plain.id, today, { pv: 8, load: 6, buy: 1, sell: 2 }, null);
    // Installed this month, three months ago (twice) and eleven months ago; none in between.
    const install = async (id: number, month: string) =>
      t.db.query("UPDATE device SET installed_at = $2::date WHERE id = $1", [id, `${month}-15`]);
    await install(old1.id, monthsBack(0));
    await install(old2.id, monthsBack(3));
    await install(plain.id, monthsBack(3));
    const late = await registerDevice(t.db, { sn: uniqueSerial("BL"), timeZone: "UTC" });
    await install(late.id, monthsBack(11));
    const token = await signIn(t.app);
    const answer = await t.app.inject({
      method: "GET",
      url: "/admin/board/total",
      headers: { authorization: `Bearer ${token}` },
    });
    board = answer.json().data;
  });
  afterAll(() => t.close());

  it("counts lifetime totals from the devices' lifetime counters, today from today's counters", () => {
    expect(board.today).toEqual({ pv: 30 + 12 + 8, load: 18 + 10 + 6, buy: 2 + 1 + 1, sell: 12 + 3 + 2 });
    expect(board.total).toEqual({
      pv: 4_321.5 + 2_500 + (7 + 8),
      load: 3_210 + 2_000 + (5 + 6),
      buy: 845 + 600 + (1 + 1),
      sell: 1_612 + 700 + (2 + 2),
    });
    expect(board.total.pv).toBeGreaterThan(board.today.pv * 100);
    // CO2 follows the lifetime generation.
    expect(board.co2Kg).toBeGreaterThan(1_000);
  });

  it("shows each of the last twelve months, a month without installations as zero", () => {
    const months = board.installations.byMonth;
    expect(months.map((m) => m.month)).toEqual(Array.from({ length: 12 }, (_, i) => monthsBack(11 - i)));
    const count = (n: number) => months.find((m) => m.month === monthsBack(n))?.count;
    expect([count(0), count(1), count(2), count(3), count(4), count(10), count(11)]).toEqual([1, 0, 0, 2, 0, 0, 1]);
  });

  it("takes a device's lifetime counters back to its previous day when its newest day is removed", async () => {
    const { rows } = await t.db.query<{ id: number }>("SELECT device_id AS id FROM device_energy_total WHERE pv_life = 4321.5");
    const id = rows[0]?.id as number;
    await t.db.query("DELETE FROM device_energy_daily WHERE device_id = $1 AND day = $2::date", [id, todayIn("UTC")]);
    const after = await t.db.query<{ pv_life: number; sell_life: number; last_day: string }>(
      "SELECT pv_life, sell_life, last_day FROM device_energy_total WHERE device_id = $1",
      [id],
    );
    expect(after.rows[0]).toEqual({ pv_life: 4_000, sell_life: 1_500, last_day: "2026-01-10" });
  });
});
