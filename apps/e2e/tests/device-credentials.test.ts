import { readFile } from "node:fs/promises";
import type { ServerProcess } from "@ess/server/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchBrowser, screenshot } from "../src/browser.ts";
import { adminPage, startConsole } from "../src/console-server.ts";
import { crudScreen } from "../src/crud-screen.ts";

/**
 * Devices' broker credentials in Chromium: a device added in the console shows its MQTT user name,
 * secret and topic prefix once (in English and Italian), a batch import offers its devices' secrets
 * as a CSV file, and the row's "More" menu resets a secret after asking.
 */
describe.skipIf(!CHROMIUM)("device broker credentials in Chromium", () => {
  let browser: Browser;
  let server: ServerProcess;
  let url: string;

  beforeAll(async () => {
    ({ url, server } = await startConsole());
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const credential = (page: Page) => ({
    dialog: page.getByTestId("device-credential-dialog"),
    username: () => page.getByTestId("device-credential-username").textContent(),
    secret: async () => (await page.getByTestId("device-credential-secret").textContent()) ?? "",
    topic: () => page.getByTestId("device-credential-topic").textContent(),
    warning: () => page.getByTestId("device-credential-warning").textContent(),
    title: () => page.locator(".ant-modal-title", { hasText: /ESSCRED/ }).textContent(),
  });

  async function addDevice(page: Page, sn: string) {
    const devices = crudScreen(page, "devices");
    await devices.open(url, "/device/list/index");
    await devices.create();
    await devices.fill({ sn, name: "Roof" });
    await devices.choose("model", "H6K");
    await devices.save();
    await devices.dialogGone();
    return devices;
  }

  it("shows a new device's credentials once, then resets its secret after asking (en-US)", async () => {
    const page = await adminPage(browser, url);
    const devices = await addDevice(page, "ESSCRED01");
    const shown = credential(page);
    await shown.dialog.waitFor();
    expect(await shown.title()).toBe("Broker credentials of ESSCRED01");
    expect(await shown.username()).toBe("ESSCRED01");
    expect(await shown.topic()).toBe("ess/v1/ESSCRED01/");
    const first = await shown.secret();
    expect(first).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(await shown.warning()).toContain("The secret is shown only this once");
    await page.getByTestId("device-credential-copy").waitFor();
    await screenshot(page, "device-credentials-created-en-US");
    await page.getByTestId("device-credential-done").click();
    await shown.dialog.waitFor({ state: "detached" });
    // Read back, the device carries no secret.
    await expect.poll(() => devices.row("ESSCRED01").isVisible()).toBe(true);
    expect(await page.content()).not.toContain(first);

    await devices.row("ESSCRED01").getByTestId("devices-more").click();
    await page.locator(".ant-dropdown:not(.ant-dropdown-hidden)").getByTestId("devices-resetSecret").click();
    const confirmation = page.locator(".ant-modal-confirm").last();
    await expect.poll(() => confirmation.textContent()).toContain("Reset the broker secret of the device ESSCRED01?");
    await page.waitForFunction(() => !document.querySelector(".ant-modal-confirm[class*='ant-zoom']"));
    await confirmation.getByRole("button", { name: "Confirm" }).click();
    await shown.dialog.waitFor();
    const second = await shown.secret();
    expect(second).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(second).not.toBe(first);
    expect(await shown.warning()).toContain("shown only this once");
    await screenshot(page, "device-credentials-reset-en-US");
    await page.getByTestId("device-credential-done").click();
    await shown.dialog.waitFor({ state: "detached" });
  });

  it("offers the secrets of the devices an import registered as a CSV file (en-US)", async () => {
    const page = await adminPage(browser, url);
    await page.goto(`${url}#/device/list/index`);
    await page.getByTestId("devices-import").click();
    const dialog = page.getByTestId("devices-import-dialog");
    await page.getByTestId("devices-import-template").waitFor();
    await dialog.locator("input[type=file]").setInputFiles({
      name: "devices.csv",
      mimeType: "text/csv",
      buffer: Buffer.from("sn,name,model\r\nESSCREDIMP1,One,H6K\r\nESSCREDIMP2,Two,T10K\r\nESSCREDIMP3,Bad,Q9\r\n"),
    });
    const offer = page.getByTestId("devices-import-credentials");
    await offer.waitFor();
    expect(await offer.textContent()).toContain("The broker secrets of the 2 devices imported are shown only this once");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId("devices-import-credentials-download").click(),
    ]);
    expect(download.suggestedFilename()).toBe("device-credentials.csv");
    const lines = (await readFile(await download.path(), "utf8"))
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe('"SN code","Secret","Topic prefix"');
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(["ESSCREDIMP1", "ESSCREDIMP2"]);
    for (const line of lines.slice(1)) expect(line.split(",")[1]).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    await screenshot(page, "device-credentials-import-en-US");
    // Closed and opened again, the dialog no longer offers them.
    await page.keyboard.press("Escape");
    await page.getByTestId("devices-import").click();
    await page.getByTestId("devices-import-template").waitFor();
    expect(await page.getByTestId("devices-import-credentials").count()).toBe(0);
  });

  it("says in Italian that the secret is shown only once", async () => {
    const page = await adminPage(browser, url, { locale: "it" });
    await addDevice(page, "ESSCRED02");
    const shown = credential(page);
    await shown.dialog.waitFor();
    expect(await shown.title()).toBe("Credenziali broker di ESSCRED02");
    expect(await shown.warning()).toContain("Il segreto viene mostrato solo questa volta");
    expect(await page.getByTestId("device-credential-copy").textContent()).toBe("Copia");
    await screenshot(page, "device-credentials-created-it");
  });
});
