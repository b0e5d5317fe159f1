import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, openTab, screenshot } from "../src/browser.ts";
import { startSettingsFleet } from "../src/demo-fleet-fixture.ts";

/**
 * The device settings panel (its own route, /device/settings/:id) against two simulated devices
 * reporting every 2 s: a battery setting changed and acknowledged in the records, a schedule with
 * overlapping quarters refused with the spec's message, prices edited and revenue following them.
 */
describe.skipIf(!CHROMIUM)("device settings in Chromium", () => {
  let fleet: Awaited<ReturnType<typeof startSettingsFleet>>;
  let threePhase = 0;

  const db = () => fleet.db();
  const open = (deviceId: number, tab: string) => fleet.open(deviceId, tab);
  const field = (page: Page, id: string) => page.getByTestId(`setting-${id}`).locator("input");
  const writes = async (deviceId: number) =>
    (await db().query<{ n: number }>("SELECT count(*)::int AS n FROM device_write WHERE device_id = $1", [deviceId])).rows[0]?.n;

  beforeAll(async () => {
    fleet = await startSettingsFleet("ess-e2e-settings-", 2);
    // The demo fleet's three-phase device, once it has reported.
    threePhase = await fleet.onlineDevice(2);
  }, 60_000);
  afterAll(() => fleet?.stop());

  it("changes a battery setting and sees it acknowledged in the change records", async () => {
    const page = await open(threePhase, "48");
    const soc = field(page, "TP_0X03_1054");
    await expect.poll(() => soc.inputValue(), { timeout: 15_000 }).not.toBe("");
    const before = await soc.inputValue();
    const next = before === "30" ? "35" : "30";
    await soc.fill(next);
    await page.getByTestId("settings-save").click();
    await expect
      .poll(() => page.getByTestId("settings-outcome").textContent(), { timeout: 15_000 })
      .toBe("The device acknowledged the change");
    await openTab(page, "settings-tab-records");
    const row = page.getByTestId("write-records").getByRole("row").filter({ hasText: "Grid-Connected SOC Lower Limit" }).first();
    await expect
      .poll(() => row.textContent(), { timeout: 10_000 })
      .toContain(`Grid-Connected SOC Lower Limit: ${before} → ${next}`);
    expect(await row.textContent()).toContain("Acknowledged");
    await screenshot(page, "device-settings-records-en-US");
  });

  it("refuses a schedule whose quarters overlap with the spec's message, and sends nothing", async () => {
    const page = await open(threePhase, "49");
    const q2Start = field(page, "TP_0X03_92");
    await expect.poll(() => q2Start.inputValue(), { timeout: 15_000 }).toBe("4");
    const count = await writes(threePhase);
    // Q1 runs January–March: starting Q2 in February overlaps it.
    await q2Start.fill("2");
    await page.getByTestId("settings-save").click();
    await expect.poll(() => page.getByTestId("settings-outcome").textContent()).toBe("The time period range cannot overlap");
    expect(await page.getByTestId("setting-TP_0X03_92").textContent()).toContain("The time period range cannot overlap");
    expect(await writes(threePhase)).toBe(count);
    await screenshot(page, "device-settings-schedule-overlap-en-US");
  });

  it("edits a user's electricity prices and sees today's revenue follow them", async () => {
    const { rows: users } = await db().query<{ id: number }>(
      "INSERT INTO sys_user (tenant_id, username, password_hash, name, user_type) VALUES (1, 'price-owner', 'x', 'Owner', 2) RETURNING id",
    );
    const { rows: devices } = await db().query<{ id: number }>(
      "INSERT INTO device (tenant_id, sn, name, phase_type, time_zone, owner_user_id) VALUES (1, 'ESSREV0001', 'Revenue', 2, 'UTC', $1) RETURNING id",
      [users[0]?.id],
    );
    const deviceId = devices[0]?.id as number;
    // Two readings a few minutes ago today: 3 kWh bought and 1.5 kWh sold so far today.
    const now = Date.now();
    const midnight = now - (now % 86_400_000);
    const at = (ms: number) => new Date(Math.max(midnight + 60_000, ms)).toISOString();
    for (const [ts, buy, sell] of [
      [at(now - 600_000), 1, 0.5],
      [at(now - 300_000), 3, 1.5],
    ] as const) {
      await db().query(
        "INSERT INTO telemetry_history (device_id, ts, seq, buy_today, sell_today, blocks) VALUES ($1, $2, 1, $3, $4, '\\x')",
        [deviceId, ts, buy, sell],
      );
    }
    const page = await open(deviceId, "tariff");
    await page.getByTestId("tariff-panel").waitFor();
    await page.getByTestId("tariff-buy-0-price").fill("0.5");
    await page.getByTestId("tariff-sell-0-price").fill("0.2");
    await page.getByTestId("tariff-save").click();
    await expect.poll(() => page.getByTestId("tariff-outcome").textContent()).toBe("The prices are saved");
    const revenue = () => page.getByTestId("revenue-today").locator(".ant-statistic-content").textContent();
    await expect.poll(revenue).toBe("-1.20EUR"); // 1.5 kWh × 0.2 − 3 kWh × 0.5
    await page.getByTestId("tariff-buy-0-price").fill("0.05");
    await page.getByTestId("tariff-save").click();
    await expect.poll(revenue).toBe("0.15EUR"); // 1.5 × 0.2 − 3 × 0.05
    await screenshot(page, "device-settings-tariff-en-US");

    // A device without a user: no prices to set.
    const { rows: bare } = await db().query<{ id: number }>(
      "INSERT INTO device (tenant_id, sn, name, phase_type, time_zone) VALUES (1, 'ESSREV0002', 'Bare', 2, 'UTC') RETURNING id",
    );
    const unbound = await open(bare[0]?.id as number, "tariff");
    await expect
      .poll(() => unbound.getByTestId("tariff-unavailable").textContent(), { timeout: 10_000 })
      .toBe("No user bound, price setting unavailable.");
  });
});
