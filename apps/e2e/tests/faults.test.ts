import { registerDevice } from "@ess/server/devices";
import { manualDevice } from "@ess/server/sim";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchBrowser, screenshot } from "../src/browser.ts";
import { crudScreen } from "../src/crud-screen.ts";
import { signIn, startShellConsole } from "../src/shell-fixture.ts";

type VirtualDevice = Awaited<ReturnType<typeof manualDevice>>;

/**
 * Faults and alarms in Chromium: a fault injected into a simulated three-phase device reaches the
 * open console as a live notice and shows in the current alarms with its causes and remedy; hiding
 * the device's alarms of that code in a time range removes it, after a confirmation.
 */
describe.skipIf(!CHROMIUM)("faults and alarms in Chromium", () => {
  let browser: Browser;
  let console_: Awaited<ReturnType<typeof startShellConsole>>;
  let url: string;
  let page: Page;
  let device: VirtualDevice;

  beforeAll(async () => {
    console_ = await startShellConsole({ ESS_ALARM_CLEAR_HOLD_S: "0" });
    url = console_.url;
    const d = await registerDevice(console_.runtime.db, {
      sn: "ESSFAULT01",
      phaseType: 2,
      timeZone: "Europe/Rome",
      name: "Cellar",
    });
    device = await manualDevice(console_.runtime, d, "three", "rome");
    await device.publishFrame(Date.now());
    browser = await launchBrowser();
    page = await browser.newPage({ locale: "en-US", viewport: { width: 1440, height: 900 } });
    await signIn(page, url);
  });
  afterAll(async () => {
    await device?.stop();
    await browser?.close();
    await console_?.stop();
  });

  it("shows an injected fault live as a notice and in the current alarms with its causes and remedy", async () => {
    const alarms = crudScreen(page, "alarms");
    await alarms.open(url, "/fault/current/index");
    await expect.poll(() => alarms.root.locator(".ant-empty").count()).toBeGreaterThan(0);

    const at = Date.now();
    await device.injectFault(2102, at);
    await device.publishFrame(at);

    const notice = page.locator('[data-testid~="reminder-alarm"]');
    await notice.waitFor({ timeout: 15_000 });
    expect(await notice.textContent()).toContain("Level 3 alarm");
    expect(await notice.textContent()).toContain("ESSFAULT01: 2102 Charge/discharge overcurrent protection");

    // The list refreshes on the notice, without a reload.
    const row = alarms.row("ESSFAULT01");
    await row.waitFor({ timeout: 10_000 });
    expect(await row.getByTestId("alarm-causes").textContent()).toContain(
      "Load or charging current above what the battery allows",
    );
    expect(await row.getByTestId("alarm-remedy").textContent()).toContain(
      "Set the charge/discharge current limits within the battery's specification",
    );
    expect(await row.textContent()).toContain("Level 3");
    await screenshot(page, "faults-current-alarm-en-US");

    // Expanding the row shows the device's status labels: an error, communication normal.
    await row.locator(".ant-table-row-expand-icon").click();
    const labels = page.getByTestId("device-status-labels");
    await labels.waitFor();
    expect(await labels.textContent()).toContain("Error");
    expect(await labels.textContent()).toContain("DSP communication normal");
  });

  it("hides the alarm by time range after confirmation, and keeps it when the confirmation is declined", async () => {
    const alarms = crudScreen(page, "alarms");
    const row = alarms.row("ESSFAULT01");
    await alarms.rowAction("ESSFAULT01", "remove");
    const dialog = page.getByTestId("alarms-remove-dialog");
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("Device ESSFAULT01, fault code 2102");

    // Declined: nothing changes.
    await page.getByTestId("alarms-remove-dialog-ok").click();
    const question = page.locator(".ant-modal-confirm-title", {
      hasText: "Apply this to the alarms of code 2102 on device ESSFAULT01 in the chosen time range?",
    });
    await question.waitFor();
    await screenshot(page, "faults-hide-confirm-en-US");
    await page.locator(".ant-modal-confirm-btns button", { hasText: "Cancel" }).click();
    await question.waitFor({ state: "detached" });
    expect(await row.count()).toBe(1);

    // Confirmed: the alarm leaves the list.
    await page.getByTestId("alarms-remove-dialog-ok").click();
    await question.waitFor();
    await page.getByTestId("alarms-remove-dialog-confirm-ok").click();
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(0);
    const stored = await console_.runtime.db.query<{ hidden: boolean }>(
      "SELECT hidden FROM device_alarm WHERE code = 2102 AND cleared_at IS NULL",
    );
    expect(stored.rows).toEqual([{ hidden: true }]);
    await screenshot(page, "faults-hidden-en-US");
  });
});
