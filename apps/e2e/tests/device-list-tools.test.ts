import type { ServerProcess } from "@ess/server/testing";
import ExcelJS from "exceljs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../src/api.ts";
import { CHROMIUM, launchBrowser, screenshot } from "../src/browser.ts";
import { adminPage, startFleetConsole } from "../src/console-server.ts";
import { ADMIN_PASSWORD } from "../src/shell-fixture.ts";

/** Whole hours from UTC of a zone now, as the catalogue's time zones count them (East 1, West 3…). */
const hoursFromUtc = (timeZone: string) => {
  const name = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })
    .formatToParts(new Date())
    .find((p) => p.type === "timeZoneName")?.value;
  const match = /GMT([+-])(\d{2})/.exec(name ?? "");
  return match ? Number(`${match[1]}${Number(match[2])}`) : 0;
};

/**
 * The device list's tools in Chromium with three simulated devices (Rome, Munich, Sydney): firmware
 * versions as the devices report them, the catalogue's time zones as a filter, the rows' "More"
 * menu (bind only on an unbound device; a second bind refused with who is bound), an Excel import
 * with good and bad rows, and the board's installations per month.
 */
describe.skipIf(!CHROMIUM)("the device list's tools in Chromium", () => {
  let browser: Browser;
  let server: ServerProcess;
  let url: string;

  beforeAll(async () => {
    ({ url, server } = await startFleetConsole({ prefix: "ess-e2e-device-tools-", devices: 3, intervalMs: 1000 }));
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const signedIn = () => adminPage(browser, url, { viewport: { width: 1600, height: 1000 } });
  const rows = (page: Page) => page.getByTestId("devices-table").locator("tbody tr.ant-table-row");
  const row = (page: Page, sn: string) => rows(page).filter({ hasText: sn });

  it("shows the installations of the past months on the board", async () => {
    const page = await signedIn();
    // The board read after a reload (the one of the sign-in is done by then, so it cannot be caught instead).
    await page.getByTestId("board-installations").locator("canvas").waitFor();
    const answer = page.waitForResponse((r) => r.url().includes("/admin/board/total"));
    await page.reload();
    const board = (await (await answer).json()).data;
    // The demo fleet was installed over the past months: the chart has a bar per month with one.
    expect(board.installations.byMonth.length).toBeGreaterThanOrEqual(3);
    await page.getByTestId("board-installations").locator("canvas").waitFor();
    await screenshot(page, "device-tools-board-en-US");
  });

  it("lists the firmware versions the devices report and filters by the catalogue's time zones", async () => {
    const page = await signedIn();
    await page.goto(`${url}#/device/list/index`);
    // Device 2 is three phase: communication stick, MCU, DSP and BMS versions all come from its readings.
    const three = row(page, "ESSDEMO00002");
    await expect
      .poll(
        async () => {
          await page.getByTestId("devices-search").click();
          return three.textContent();
        },
        { timeout: 30_000, interval: 2000 },
      )
      .toContain("2.15");
    expect(await three.textContent()).toMatch(/1\.30.*1\.32.*2\.15.*1\.21/);

    await page.getByTestId("devices-filter-utcOffset").click();
    const options = page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option");
    // Every zone of the catalogue, West 11 to East 13 (the list scrolls, so count through the search).
    await page.keyboard.type("West 11");
    await expect.poll(() => options.count()).toBe(1);
    await page.keyboard.press("Control+A");
    await page.keyboard.type("East 13");
    await expect.poll(() => options.count()).toBe(1);
    await page.keyboard.press("Control+A");
    const rome = hoursFromUtc("Europe/Rome");
    await page.keyboard.type(`East ${rome} (`);
    await options.first().click();
    await page.getByTestId("devices-search").click();
    // Rome and Munich share their zone; Sydney is far east.
    await expect.poll(() => rows(page).count()).toBe(2);
    expect((await rows(page).allTextContents()).join()).not.toContain("ESSDEMO00003");
    await screenshot(page, "device-tools-list-en-US");

    // The filtered set exported as an Excel workbook: a header and the two devices.
    await page.getByTestId("devices-export").click();
    const confirm = page.locator(".ant-modal-confirm").last();
    await expect.poll(() => confirm.textContent()).toContain("Export the 2 records that match the filters?");
    await page.waitForFunction(() => !document.querySelector(".ant-modal-confirm[class*='ant-zoom']"));
    const download = page.waitForEvent("download");
    await confirm.getByRole("button", { name: "Confirm" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe("devices.xlsx");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(await file.path());
    const sheet = workbook.worksheets[0];
    expect(sheet?.name).toBe("Devices");
    const serials = sheet?.getColumn(2).values.slice(2).map(String).sort();
    expect(serials).toEqual(["ESSDEMO00001", "ESSDEMO00002"]);
  }, 90_000);

  it("keeps binding and renaming in each row's More menu", async () => {
    const page = await signedIn();
    await page.goto(`${url}#/device/list/index`);
    const first = row(page, "ESSDEMO00001");
    await first.getByTestId("devices-edit").waitFor();
    expect(await first.getByTestId("devices-bindInstaller").count()).toBe(0);
    await first.getByTestId("devices-more").click();
    const menu = page.locator(".ant-dropdown:not(.ant-dropdown-hidden)");
    await menu.getByTestId("devices-bindInstaller").waitFor();
    expect(await menu.textContent()).toContain("Rename as user");
    // Nothing is bound yet, so there is nothing to unbind.
    expect(await menu.getByTestId("devices-unbindUser").count()).toBe(0);
    await menu.getByTestId("devices-bindInstaller").click();
    await page.getByTestId("devices-bindInstaller-dialog-ok").waitFor();
    await screenshot(page, "device-tools-more-en-US");
  });

  it("offers the unbind, not a second bind, on a bound device, and says why a bind made meanwhile is refused", async () => {
    const api = apiClient(url);
    const token = await api.signIn("admin", ADMIN_PASSWORD);
    // Accounts of this attempt's own: a retry finds the first attempt's, and the device it bound.
    const run = Date.now().toString(36);
    const account = (name: string) =>
      api.post<{ id: number; username: string }>(
        "/admin/lsyuser/save",
        { username: `${name.toLowerCase()}-${run}`, password: `${name}2025x`, name },
        token,
      );
    const anna = await account("Anna");
    const bruno = await account("Bruno");
    const id = (await api.get<{ records: { id: number }[] }>("/admin/lsydevice/page?sn=ESSDEMO00003", token)).records[0]?.id;
    await api.post("/admin/lsydevice/unbindUser", { id }, token).catch(() => undefined);

    const page = await signedIn();
    await page.goto(`${url}#/device/list/index`);
    const device = row(page, "ESSDEMO00003");
    await device.getByTestId("devices-edit").waitFor();
    const menu = page.locator(".ant-dropdown:not(.ant-dropdown-hidden)");
    const chooseUser = async (name: string) => {
      await page.getByTestId("devices-bindUser-dialog-userId").click();
      await page.keyboard.type(name);
      await page
        .locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option", { hasText: name })
        .click();
    };
    await device.getByTestId("devices-more").click();
    await menu.getByTestId("devices-bindUser").click();
    await chooseUser(bruno.username);
    // Meanwhile another administrator binds the device to Anna: the dialog says so and changes nothing.
    await api.post("/admin/lsydevice/bindUser", { id, userId: anna.id }, token);
    await page.getByTestId("devices-bindUser-dialog-ok").click();
    await expect
      .poll(() => page.getByTestId("devices-bindUser-dialog-error").textContent())
      .toBe(`This device is already bound to user ${anna.username}: unbind that user first, then bind the new one`);
    await screenshot(page, "device-tools-second-bind-en-US");
    await page.getByTestId("devices-bindUser-dialog-cancel").click();
    await page.getByTestId("devices-bindUser-dialog").waitFor({ state: "detached" });

    // The refusal read the list again: the row shows Anna and offers her unbind instead of a second bind.
    await expect.poll(() => device.textContent()).toContain(anna.username);
    await device.getByTestId("devices-more").click();
    await menu.getByTestId("devices-unbindUser").waitFor();
    expect(await menu.getByTestId("devices-bindUser").count()).toBe(0);
    await menu.getByTestId("devices-unbindUser").click();
    const confirm = page.locator(".ant-modal-confirm").last();
    await expect.poll(() => confirm.textContent()).toContain("Unbind the user of the device ESSDEMO00003?");
    await page.waitForFunction(() => !document.querySelector(".ant-modal-confirm[class*='ant-zoom']"));
    await confirm.getByRole("button", { name: "Confirm" }).click();
    await expect.poll(() => device.textContent()).not.toContain(anna.username);

    // The transfer's second step: the unbound device takes Bruno.
    await device.getByTestId("devices-more").click();
    await menu.getByTestId("devices-bindUser").click();
    await chooseUser(bruno.username);
    await page.getByTestId("devices-bindUser-dialog-ok").click();
    await page.getByTestId("devices-bindUser-dialog").waitFor({ state: "detached" });
    await expect.poll(() => device.textContent()).toContain(bruno.username);
  }, 90_000);

  it("imports an Excel workbook with good and bad rows, each with its outcome", async () => {
    const page = await signedIn();
    await page.goto(`${url}#/device/list/index`);
    await page.getByTestId("devices-import").click();
    const dialog = page.getByTestId("devices-import-dialog");
    // The template is a workbook whose header row is the import's columns.
    const templateFile = page.waitForEvent("download");
    await page.getByTestId("devices-import-template").click();
    const template = await templateFile;
    expect(template.suggestedFilename()).toBe("device-import-template.xlsx");
    const templateBook = new ExcelJS.Workbook();
    await templateBook.xlsx.readFile(await template.path());
    expect(templateBook.worksheets[0]?.getRow(1).getCell(1).text).toBe("sn");
    expect(templateBook.worksheets[0]?.getRow(2).getCell(3).text).toBe("H6K");
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet("Devices");
    sheet.addRow(["sn", "name", "model", "countryCode"]);
    sheet.addRow(["ESSXLSX01", "Roof", "H6K", 1]);
    sheet.addRow(["ESSXLSX02", "Cellar", "Q9", 1]);
    sheet.addRow(["ESSDEMO00001", "Twice", "H6K", 1]);
    await dialog.locator("input[type=file]").setInputFiles({
      name: "devices.xlsx",
      mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      buffer: Buffer.from(await book.xlsx.writeBuffer()),
    });
    const result = page.getByTestId("devices-import-result");
    await result.waitFor();
    expect(await page.getByTestId("import-row-2").textContent()).toBe("Succeeded");
    expect(await page.getByTestId("import-row-3").textContent()).toBe("Failed");
    expect(await page.getByTestId("import-row-4").textContent()).toBe("Failed");
    expect(await result.textContent()).toContain("Unknown model");
    expect(await result.textContent()).toContain("This SN code is already registered");
    await screenshot(page, "device-tools-import-xlsx-en-US");
    await page.keyboard.press("Escape");
    await expect.poll(() => rows(page).allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining("ESSXLSX01")]));
  });
});
