import { DEFAULT_TARIFF } from "@ess/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildWorld, type World } from "../helpers/channel-world.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { worldClient } from "../helpers/world-client.ts";
import { addEnergyDay } from "./world-energy.ts";

let t: TestApp;
let world: World;
let api: ReturnType<typeof worldClient>;

beforeAll(async () => {
  t = await createTestApp();
  world = await buildWorld(t.app, t.db);
  api = worldClient(t, world);
}, 120_000);
afterAll(() => t.close());

describe("a large device list", () => {
  const page = async (q: string) => (await api.get(`/admin/lsydevice/page?${q}`, "admin")).json().data;

  it("stops counting ten pages ahead, says so, and still pages forward and to the end", async () => {
    await t.db.query(
      `INSERT INTO device (tenant_id, sn, name, online_status, created_at)
       SELECT 1, 'BULK' || lpad(g::text, 5, '0'), 'Bulk ' || g, 1, now() - g * interval '1 minute' FROM generate_series(1, 2100) g`,
    );
    const all = (await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM device WHERE deleted_at IS NULL")).rows[0]?.n;
    const first = await page("size=20&current=1");
    expect(first).toMatchObject({ total: 200, totalCapped: true, pages: 10 });
    expect(first.records).toHaveLength(20);
    // The last page counted moves the count ten pages further.
    expect(await page("size=20&current=10")).toMatchObject({ total: 380, totalCapped: true, pages: 19 });
    // Near the end of what was counted the count reaches ten pages further: here, everything.
    const later = await page("size=20&current=100");
    expect(later.total).toBe(all);
    expect(later.totalCapped).toBeUndefined();
    expect(later.records).toHaveLength(20);
    // A narrow filter is counted exactly.
    const narrow = await page("sn=ulk0209&size=20");
    expect(narrow.total).toBe(10);
    expect(narrow.totalCapped).toBeUndefined();
  });
});

describe("running energy totals", () => {
  const revenue = async (id: number, endDate: string) =>
    (await api.get(`/admin/lsydeviceincomedata/list?deviceId=${id}&type=0&startDate=2026-05-01&endDate=${endDate}`, "u1b")).json()
      .data;
  const gain = (selfUsed: number, sold: number) =>
    Math.round((selfUsed * DEFAULT_TARIFF.buyPrice + sold * DEFAULT_TARIFF.sellPrice) * 100) / 100;

  it("follow a day the ingest revises and a day removed, in the cumulative gain", async () => {
    const id = world.devices.get("dev-1b")?.id as number;
    await addEnergyDay(t.db, id, "2026-05-01", { pv: 20, load: 15, buy: 3, sell: 8 });
    await addEnergyDay(t.db, id, "2026-05-02", { pv: 10, load: 12, buy: 4, sell: 2 });
    expect((await revenue(id, "2026-05-31")).cumulative).toBe(gain(12 + 8, 8 + 2));
    // A later reading of 2 May raises its counters, as the ingest's merge does.
    await t.db.query(
      `INSERT INTO device_energy_daily (device_id, day, first_ts, last_ts, pv_day_last, sell_day_last)
       VALUES ($1, '2026-05-02', '2026-05-02 23:58', '2026-05-02 23:59', 14, 3)
       ON CONFLICT (device_id, day) DO UPDATE SET pv_day_last = EXCLUDED.pv_day_last, sell_day_last = EXCLUDED.sell_day_last`,
      [id],
    );
    expect((await revenue(id, "2026-05-31")).cumulative).toBe(gain(12 + 11, 8 + 3));
    // A range ending before the latest day sums its days instead, by the same rule.
    expect((await revenue(id, "2026-05-01")).cumulative).toBe(gain(12, 8));
    await t.db.query("DELETE FROM device_energy_daily WHERE device_id = $1 AND day = '2026-05-02'", [id]);
    expect((await revenue(id, "2026-05-31")).cumulative).toBe(gain(12, 8));
  });
});
