import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, openTab, screenshot } from "../src/browser.ts";
import { startSettingsFleet } from "../src/demo-fleet-fixture.ts";

/**
 * The generator page and the self-check against the demo fleet's simulated devices (reporting
 * every 2 s): a generator change reaches the device and shows acknowledged in the change records;
 * a self-check is started and followed until the device reports it done.
 */
describe.skipIf(!CHROMIUM)("generator and self-check in Chromium", () => {
  let fleet: Awaited<ReturnType<typeof startSettingsFleet>>;
  const open = (deviceId: number, tab: string) => fleet.open(deviceId, tab, { width: 1400, height: 1100 });
  const choose = async (page: Page, field: string, option: string) => {
    await page.locator(`#${field}`).click();
    await page.locator(`.ant-select-item-option[title="${option}"]`).click();
  };

  beforeAll(async () => {
    // Two demo devices: a single-phase and a three-phase one.
    fleet = await startSettingsFleet("ess-e2e-generator-", 2);
  }, 120_000);
  afterAll(() => fleet?.stop());

  it("saves the generator page, sees the device apply it, and finds it acknowledged in the records", async () => {
    const page = await open(await fleet.onlineDevice(1), "generator");
    await page.getByTestId("generator-panel").waitFor();
    // The first options of the list (it renders only those in view).
    await choose(page, "ratedPowerKw", "12 kW");
    await page.locator("#availablePct").fill("80");
    await choose(page, "outputMode", "Loads and battery");
    await page.locator("#chargePowerKw").fill("5");
    await page.getByTestId("generator-save").click();
    await expect
      .poll(() => page.getByTestId("generator-outcome").textContent(), { timeout: 15_000 })
      .toBe("The generator settings are saved and applied by the device");
    await screenshot(page, "device-generator-saved-en-US");

    await openTab(page, "settings-tab-records");
    const row = page.getByTestId("write-records").getByRole("row").filter({ hasText: "Gen Rated Power" }).first();
    await expect.poll(() => row.textContent(), { timeout: 10_000 }).toMatch(/Gen Rated Power: .+ → 12/);
    expect(await row.textContent()).toContain("Generator Availability (%)");
    expect(await row.textContent()).toContain("Acknowledged");
    await screenshot(page, "device-generator-records-en-US");
  }, 120_000);

  it("starts a self-check and follows it until the device reports it done", async () => {
    const page = await open(await fleet.onlineDevice(2), "self-check");
    await page.getByTestId("self-check-start").click();
    await page.locator(".ant-popconfirm").getByRole("button", { name: "OK" }).click();
    const row = page.getByTestId("self-check").locator(".ant-table-tbody tr").first();
    await expect.poll(() => row.textContent(), { timeout: 10_000 }).toContain("During self inspection");
    await screenshot(page, "device-self-check-running-en-US");
    // The simulated check takes 20 s of device time; the panel follows it on its own.
    await expect.poll(() => row.textContent(), { timeout: 45_000, interval: 1000 }).toContain("Self inspection completed");
    await screenshot(page, "device-self-check-done-en-US");
  }, 120_000);
});
