import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ServerProcess, tempDataDir } from "@ess/server/testing";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchBrowser, screenshot } from "../src/browser.ts";
import { adminPage, startFleetConsole } from "../src/console-server.ts";
import { crudScreen } from "../src/crud-screen.ts";

/**
 * Done-when 2 of the OTA issue, in Chromium against the real server with a demo fleet of six
 * simulated devices (one upgrade in ten fails on purpose, as the simulator's default): upload a
 * firmware version, launch a campaign to a filtered set, watch its progress, read the records.
 */
describe.skipIf(!CHROMIUM)("firmware versions and an OTA campaign in Chromium", () => {
  let browser: Browser;
  let server: ServerProcess;
  let url: string;
  const packageFile = join(tempDataDir("ess-e2e-ota-package-"), "mcu-1.45.bin");

  beforeAll(async () => {
    writeFileSync(packageFile, Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7) % 251)));
    ({ url, server } = await startFleetConsole({
      prefix: "ess-e2e-ota-",
      devices: 6,
      intervalMs: 2000,
      env: { ESS_OTA_TICK_MS: "300" },
    }));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const signedIn = () => adminPage(browser, url);

  it("uploads a version, launches a campaign to the three-phase devices, watches it finish and reads the records", async () => {
    const page = await signedIn();

    // Upgrade info management: the package is required, then uploaded, checksummed and saved.
    const versions = crudScreen(page, "versions");
    await versions.open(url, "/ota/version/index");
    await versions.create();
    await versions.fill({ versionName: "Spring MCU" });
    await versions.save();
    await expect.poll(() => versions.fieldError("fileId")).toBe("Upgrade package cannot be empty");
    await expect.poll(() => versions.fieldError("versionCode")).toBe("Please add the upgrade version number");
    await page.getByTestId("versions-create-dialog-fileId-file").setInputFiles(packageFile);
    await expect
      .poll(() => page.getByTestId("versions-create-dialog-fileId-stored").textContent(), { timeout: 10_000 })
      .toContain("mcu-1.45.bin (200000 bytes)");
    await versions.fill({ versionCode: "1.45", "notes.en-US": "Faster start-up" });
    await versions.save();
    await versions.dialogGone();
    await expect.poll(() => versions.row("Spring MCU").textContent()).toContain("mcu-1.45.bin · 200000");
    await page
      .getByTestId(/^copy-version-/)
      .first()
      .click();
    await expect.poll(() => page.locator(".ant-message").textContent()).toContain("Version number copied");

    // A campaign to the three-phase devices: the form shows which devices it reaches.
    const campaigns = crudScreen(page, "campaigns");
    await campaigns.open(url, "/ota/campaign/index");
    await campaigns.create();
    await campaigns.fill({ name: "Spring roll-out" });
    await campaigns.choose("versionId", "MCU 1.45");
    await campaigns.choose("filter.phaseType", "Three phase");
    const summary = page.getByTestId("campaigns-create-dialog-preview-summary");
    // The demo devices report their model with their first readings.
    const numbers = async () => ((await summary.textContent()) ?? "").match(/\d+/g)?.map(Number) ?? [];
    await expect.poll(async () => (await numbers())[0] ?? 0, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await summary.textContent()).toMatch(/^\d+ devices match, \d+ can take this version$/);
    const [matched, compatible] = await numbers();
    expect(matched).toBeLessThan(6);
    expect(compatible).toBe(matched);
    await screenshot(page, "ota-campaign-form-en-US");
    await campaigns.save();
    await campaigns.dialogGone();
    await expect.poll(() => page.locator(".ant-message").textContent()).toContain("Campaign launched");

    // Progress moves on the screen without a reload until every device is done.
    const row = campaigns.row("Spring roll-out");
    await expect.poll(() => row.locator('[data-testid^="campaign-state-"]').textContent(), { timeout: 90_000 }).toBe("Completed");
    const counts = (await row.locator('[data-testid^="campaign-counts-"]').textContent()) ?? "";
    const [succeeded, failed, open, pending, total] = counts.match(/\d+/g)?.map(Number) ?? [];
    expect(total).toBe(matched);
    expect((succeeded ?? 0) + (failed ?? 0)).toBe(total);
    expect((open ?? 0) + (pending ?? 0)).toBe(0);

    // The campaign's devices: each succeeded, or failed with the device's cause.
    await row.locator(".ant-table-row-expand-icon").click();
    const devices = page.locator('[data-testid^="campaign-devices-table-"] tr.ant-table-row');
    await expect.poll(() => devices.count(), { timeout: 10_000 }).toBe(total);
    for (let i = 0; i < (total ?? 0); i++) {
      const status = devices.nth(i).locator('[data-testid^="upgrade-status-"]');
      const code = await status.getAttribute("data-status");
      expect(["3", "4"]).toContain(code);
      if (code === "3") expect(await devices.nth(i).locator('[data-testid^="upgrade-cause-"]').textContent()).not.toBe("");
    }
    await screenshot(page, "ota-campaign-done-en-US");

    // A device's own upgrade records, on its page.
    const first = devices.first().locator('[data-testid^="campaign-device-"]');
    const sn = (await first.textContent()) ?? "";
    await first.click();
    // It opens the device's details on its upgrade records.
    await page.waitForURL(/#\/device\/details\/\d+\?tab=upgrades$/);
    await expect.poll(() => page.getByTestId("device-title").isVisible(), { timeout: 10_000 }).toBe(true);
    const records = page.getByTestId("upgrade-records").locator("tr.ant-table-row");
    await expect.poll(() => records.count(), { timeout: 10_000 }).toBe(1);
    expect(await records.first().textContent()).toContain("1.45");
    expect(await records.first().textContent()).toMatch(/Upgrade succeeded|Upgrade failed/);
    expect(sn).toMatch(/^ESSDEMO/);
    await screenshot(page, "ota-device-records-en-US");
  }, 180_000);

  it("sends an OTA upgrade to one device from its details page and shows its progress there", async () => {
    const page = await signedIn();
    // Device 1 is single phase, outside the three-phase campaign; the version fits any model.
    await page.goto(`${url}#/device/details/1?tab=upgrades`);
    await expect.poll(() => page.getByTestId("device-online").textContent(), { timeout: 15_000 }).toBe("Online");
    await page.getByTestId("ota-send").click();
    await page.getByTestId("ota-send-dialog").waitFor();
    await page.getByTestId("ota-send-dialog-id").click();
    await page
      .locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option", { hasText: "MCU 1.45" })
      .first()
      .click();
    await page.getByTestId("ota-send-dialog-ok").click();
    await expect.poll(() => page.locator(".ant-message").textContent()).toContain("OTA upgrade command successfully issued");
    const status = page.getByTestId("upgrade-records").locator('[data-testid^="upgrade-status-"]').first();
    await expect.poll(() => status.getAttribute("data-status"), { timeout: 60_000 }).toMatch(/^[34]$/);
    await screenshot(page, "ota-device-send-en-US");
  }, 120_000);
});
