import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, openTab, screenshot } from "../src/browser.ts";
import { startSettingsFleet } from "../src/demo-fleet-fixture.ts";

/**
 * The device settings panel (its own route, /device/settings/:id) against two simulated devices
 * reporting every 2 s: a battery setting changed and acknowledged in the records (values with
 * their units), the battery defaults restored after a confirmation, prices edited and revenue
 * following them. The schedule page: device-schedule.test.ts.
 */
describe.skipIf(!CHROMIUM)("device settings in Chromium", () => {
  let fleet: Awaited<ReturnType<typeof startSettingsFleet>>;
  let threePhase = 0;

  const db = () => fleet.db();
  const open = (deviceId: number, tab: string) => fleet.open(deviceId, tab);
  const field = (page: Page, id: string) => page.getByTestId(`setting-${id}`).locator("input");

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
      .toContain(`Grid-Connected SOC Lower Limit: ${before} % → ${next} %`);
    expect(await row.textContent()).toContain("Acknowledged");
    await screenshot(page, "device-settings-records-en-US");
  });

  it("restores the battery defaults after a confirmation listing each value, read back from the device", async () => {
    const page = await open(threePhase, "48");
    const soc = field(page, "TP_0X03_1054");
    await expect.poll(() => soc.inputValue(), { timeout: 15_000 }).not.toBe("");
    await soc.fill("40");
    await field(page, "TP_0X03_1048").fill("30");
    await page.getByTestId("settings-save").click();
    await expect
      .poll(() => page.getByTestId("settings-outcome").textContent(), { timeout: 15_000 })
      .toBe("The device acknowledged the change");
    await expect.poll(() => soc.inputValue()).toBe("40");

    await page.getByTestId("restore-defaults").click();
    const list = page.getByTestId("restore-list");
    await expect.poll(() => list.textContent()).toContain("Grid-Connected SOC Lower Limit: 40 % → 20 %");
    expect(await list.textContent()).toContain("Battery Charging Current: 30 A → 25 A");
    await screenshot(page, "device-settings-restore-confirm-en-US");
    await page.getByTestId("restore-confirm").click();
    await expect
      .poll(() => page.getByTestId("settings-outcome").textContent(), { timeout: 15_000 })
      .toBe("The device acknowledged the defaults");
    // The form shows what the device answers to a fresh page read.
    expect([await soc.inputValue(), await field(page, "TP_0X03_1048").inputValue()]).toEqual(["20", "25.0"]);
    await page.getByTestId("restore-defaults").click();
    await expect
      .poll(() => page.getByTestId("settings-outcome").textContent())
      .toBe("These battery settings are already at their defaults");
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
    // Said from the device's record: the page asks for no prices the server would refuse.
    const asked: string[] = [];
    unbound.on("request", (request) => {
      if (request.url().includes("/electricity/price/device")) asked.push(request.url());
    });
    await openTab(unbound, "settings-tab-records");
    await openTab(unbound, "settings-tab-tariff");
    await expect
      .poll(() => unbound.getByTestId("tariff-unavailable").textContent())
      .toBe("No user bound, price setting unavailable.");
    expect(asked).toEqual([]);
  });
});
