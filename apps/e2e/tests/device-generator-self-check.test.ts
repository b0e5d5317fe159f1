import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, openTab, screenshot } from "../src/browser.ts";
import { startSettingsFleet } from "../src/demo-fleet-fixture.ts";

/**
 * The generator page and the self-check against the demo fleet's simulated devices (reporting
 * every 2 s): a generator change reaches the device and shows acknowledged in the change records;
 * a self-check is started, its progress followed item by item, and each item's result shown with
 * its values when the device reports it done.
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

  it("starts a self-check, shows its progress item by item, and each item's result with its values once done", async () => {
    const page = await open(await fleet.onlineDevice(2), "self-check");
    await page.getByTestId("self-check-start").click();
    await page.locator(".ant-popconfirm").getByRole("button", { name: "Confirm" }).click();
    const state = page.getByTestId("self-check-state");
    await expect.poll(() => state.textContent(), { timeout: 10_000 }).toBe("During self inspection");
    // One item per reading (every 2 s): the progress line names the item under test.
    const progress = page.getByTestId("self-check-progress");
    await expect.poll(() => progress.textContent(), { timeout: 15_000 }).toMatch(/[1-7] of 8 items passed · .*\(\d+[<>]?\.S\d\)/);
    await screenshot(page, "device-self-check-running-en-US");
    await expect.poll(() => state.textContent(), { timeout: 45_000, interval: 1000 }).toBe("Self inspection completed");
    const outcomes = await page
      .getByTestId("self-check-items")
      .locator("tr[data-outcome]")
      .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-outcome")));
    expect(outcomes).toEqual(Array(8).fill("passed"));
    // 59.S1, the first overvoltage stage: set at 253 V and 3000 ms, and where and when it tripped.
    const first = await page.getByTestId("self-check-items-1").textContent();
    expect(first).toMatch(/^Overvoltage stage 1 \(59\.S1\)Passed253 V300025\d\.\d+ V30\d\d$/);
    expect(await page.getByTestId("self-check-items-8").textContent()).toContain("47.5 Hz");
    expect(await progress.count()).toBe(0);
    await screenshot(page, "device-self-check-done-en-US");
  }, 120_000);
});
