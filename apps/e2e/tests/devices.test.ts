import type { ServerProcess } from "@ess/server/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchBrowser, screenshot } from "../src/browser.ts";
import { adminPage, startFleetConsole } from "../src/console-server.ts";
import { adminApi, deviceDayAndLayout, identityInListAndHeader, type Lang, tabsByDevice } from "../src/device-identity-checks.ts";

/**
 * Device management in Chromium, in English, Italian and Chinese: the data board and its
 * drill-down, the list's filters, a batch import with good and bad rows, a device's details with the
 * energy flow moving, statistics over day, month, year and a custom frame, and what a device says it
 * is (src/device-identity-checks.ts). Device 1 never connects and has a year of daily energy;
 * devices 2 and 3 are simulated and report every second.
 */
describe.skipIf(!CHROMIUM)("device management in Chromium", () => {
  let browser: Browser;
  let server: ServerProcess;
  let url: string;

  beforeAll(async () => {
    ({ url, server } = await startFleetConsole({
      prefix: "ess-e2e-devices-",
      devices: 2,
      intervalMs: 1000,
      // Devices are asked for their battery type within a second of connecting.
      env: { ESS_IDENTITY_READ_MS: "1000" },
      seed: async (db) => {
        await db.query(
          `INSERT INTO device (tenant_id, sn, name, phase_type, time_zone, model, country_code)
           VALUES (1, 'ESSNEVER01', 'Garage', 2, 'Europe/Rome', 'H3-20K', 1)`,
        );
        await db.query(
          `INSERT INTO device_energy_daily (device_id, day, first_ts, last_ts, pv_day_last, load_day_last, buy_day_last,
                                            sell_day_last, charge_day_last, discharge_day_last)
           SELECT 1, d::date, d, d + interval '23 hours', 20, 14, 3, 7, 5, 4
             -- The device's days are Rome's: near midnight UTC, Rome is already a day further.
             FROM (SELECT (now() AT TIME ZONE 'Europe/Rome')::date AS today) AS rome,
                  generate_series(rome.today - 400, rome.today - 1, interval '1 day') d`,
        );
      },
    }));
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const signedIn = (locale: "en-US" | "it" | "zh-CN") =>
    adminPage(browser, url, { locale, viewport: { width: 1440, height: 1000 } });
  const rows = (page: Page) => page.getByTestId("devices-table").locator("tbody tr.ant-table-row");

  it("reads the data board and opens the offline devices from it, then filters the list (en-US)", async () => {
    const page = await signedIn("en-US");
    const board = page.getByTestId("data-board");
    await board.waitFor();
    await expect.poll(() => page.getByTestId("board-devices-all").locator(".ant-statistic-content").textContent()).toBe("3");
    // The simulated devices come online within seconds of the start; the board's answer is kept
    // for 15 s, so a board read before they connected is reloaded until it has caught up.
    const offline = page.getByTestId("board-devices-offline").locator(".ant-statistic-content");
    await expect
      .poll(
        async () => {
          if ((await offline.textContent()) !== "1") {
            await page.reload();
            await offline.waitFor();
          }
          return offline.textContent();
        },
        { timeout: 45_000, interval: 5_000 },
      )
      .toBe("1");
    // A year of 20 kWh days of device 1, and the two simulated devices' own generation.
    const totalPv = Number(
      (await page.getByTestId("board-total-pv").locator(".ant-statistic-content").textContent())?.replace(/[^\d.]/g, ""),
    );
    expect(totalPv).toBeGreaterThanOrEqual(8000);
    await screenshot(page, "devices-board-en-US");

    await page.getByTestId("board-devices-offline").getByRole("link").click();
    // The list opens on the offline devices, and its status filter says so.
    const statusFilter = page.getByTestId("devices-filter-status");
    await expect
      .poll(() => statusFilter.locator(".ant-select-content, .ant-select-selection-item").first().textContent())
      .toBe("Offline");
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).first().textContent()).toContain("ESSNEVER01");
    await page.getByTestId("device-qr-open-ESSNEVER01").click();
    await page.getByTestId("device-qr-ESSNEVER01").locator("canvas").waitFor();
    await page.keyboard.press("Escape");

    await page.getByTestId("devices-reset").click();
    await expect.poll(() => rows(page).count()).toBe(3);
    expect(await statusFilter.textContent()).not.toContain("Offline");
    await page.getByTestId("devices-filter-sn").fill("essdemo");
    await page.getByTestId("devices-search").click();
    await expect.poll(() => rows(page).count()).toBe(2);
    expect(await rows(page).allTextContents()).not.toContain(expect.stringContaining("ESSNEVER01"));
    await screenshot(page, "devices-list-filtered-en-US");
  }, 120_000);

  it("imports a file with good and bad rows, each with its outcome (it)", async () => {
    const page = await signedIn("it");
    await page.goto(`${url}#/device/list/index`);
    await page.getByTestId("devices-import").click();
    const dialog = page.getByTestId("devices-import-dialog");
    await page.getByTestId("devices-import-template").waitFor();
    const file = [
      "sn,name,model,countryCode",
      "ESSIMPORT01,Tetto,H6K,1",
      "ESSIMPORT02,Cantina,Q9,1",
      "ESSNEVER01,Doppio,H6K,1",
    ].join("\r\n");
    await dialog
      .locator("input[type=file]")
      .setInputFiles({ name: "dispositivi.csv", mimeType: "text/csv", buffer: Buffer.from(file) });
    const result = page.getByTestId("devices-import-result");
    await result.waitFor();
    expect(await page.getByTestId("import-row-2").textContent()).toBe("Riuscita");
    expect(await page.getByTestId("import-row-3").textContent()).toBe("Non riuscita");
    expect(await page.getByTestId("import-row-4").textContent()).toBe("Non riuscita");
    expect(await result.textContent()).toContain("Modello sconosciuto");
    expect(await result.textContent()).toContain("Questo codice SN è già registrato");
    await screenshot(page, "devices-import-it");
    await page.keyboard.press("Escape");
    await expect
      .poll(() => rows(page).allTextContents())
      .toEqual(expect.arrayContaining([expect.stringContaining("ESSIMPORT01")]));
    expect((await rows(page).allTextContents()).join()).not.toContain("ESSIMPORT02");
  });

  it("opens a device and watches its energy flow move, in the theme colour; an offline device says so (en-US)", async () => {
    const page = await signedIn("en-US");
    // A theme colour other than the default: the flow and the charts take it from the theme.
    const green = "#11A983";
    await page.evaluate((colour) => {
      const prefs = JSON.parse(localStorage.getItem("ess.preferences") ?? "{}");
      localStorage.setItem("ess.preferences", JSON.stringify({ ...prefs, themeColor: colour }));
    }, green);
    await page.reload();
    const sameColour = (value: string | null) => value?.toLowerCase() === green.toLowerCase();
    await expect
      .poll(async () => sameColour(await page.getByTestId("board-installations").getAttribute("data-primary")))
      .toBe(true);
    await page.goto(`${url}#/device/list/index`);
    await page.getByTestId("device-link-ESSDEMO00002").click();
    await page.getByTestId("device-details").waitFor();
    await expect.poll(() => page.getByTestId("device-online").textContent(), { timeout: 15_000 }).toBe("Online");
    const flow = page.getByTestId("energy-flow");
    await flow.waitFor({ timeout: 15_000 });
    const load = () => page.getByTestId("flow-load-power").textContent();
    const first = await load();
    // The household's load changes from one reading to the next; the load line flows out of the inverter.
    await expect.poll(load, { timeout: 15_000 }).not.toBe(first);
    expect(await page.getByTestId("flow-load").getAttribute("data-direction")).toBe("-1");
    const animated = await page
      .getByTestId("flow-load")
      .locator("line")
      .evaluate((el) => getComputedStyle(el).animationName);
    expect(animated).toBe("ess-flow-move");
    expect(sameColour(await page.getByTestId("flow-inverter").getAttribute("fill"))).toBe(true);
    expect(sameColour(await page.getByTestId("flow-load").locator("line").getAttribute("stroke"))).toBe(true);
    expect(await page.getByTestId("connection-dongle").textContent()).toContain("Connected");
    await screenshot(page, "devices-details-en-US");

    await page.goto(`${url}#/device/details/1`);
    await expect
      .poll(() => page.getByTestId("energy-flow-offline").textContent(), { timeout: 10_000 })
      .toBe("Device offline, unable to display energy flow.");
  });

  it("switches statistics between day, month, year and a custom frame, as chart and table (it)", async () => {
    const page = await signedIn("it");
    await page.goto(`${url}#/device/details/1`);
    await page.locator('[data-node-key="statistics"]').click();
    await page.getByTestId("statistics-chart-day").waitFor();
    const revenue = page.getByTestId("statistics-revenue");
    await expect.poll(() => revenue.textContent()).toContain("Guadagno cumulativo");
    // 400 days of 13 kWh used on site at 0.25 and 7 sold at 0.08 (the default tariff).
    await expect.poll(() => revenue.textContent()).toContain(`${(400 * (13 * 0.25 + 7 * 0.08)).toFixed(2)} EUR`);

    const range = page.getByTestId("statistics-range");
    await range.getByText("Anno", { exact: true }).click();
    await page.getByTestId("statistics-chart-year").locator("canvas").waitFor();
    await page.getByTestId("statistics-as").getByText("Tabella", { exact: true }).click();
    const year = page.getByTestId("statistics-table-year");
    await year.waitFor();
    // Months as Italian writes them (MM/YYYY), like every date of the console in Italian.
    const now = new Date();
    const lastMonth = new Date(now.getFullYear(), now.getMonth() - 1, 15);
    const monthText = (d: Date) => `${String(d.getMonth() + 1).padStart(2, "0")}/${d.getFullYear()}`;
    await expect.poll(() => year.textContent()).toContain(now.getMonth() === 0 ? monthText(lastMonth) : `/${now.getFullYear()}`);
    expect(await year.locator("thead").textContent()).toContain("Produzione (kWh)");

    await range.getByText("Personalizzato", { exact: true }).click();
    const custom = page.getByTestId("statistics-table-custom");
    await custom.waitFor();
    // The last seven days: six whole days with 20 kWh generated each, and today not yet rolled up.
    await expect.poll(() => custom.locator("tbody tr.ant-table-row").count()).toBe(6);
    await range.getByText("Mese", { exact: true }).click();
    await page.getByTestId("statistics-table-month").waitFor();
    await page.getByTestId("statistics-as").getByText("Grafico", { exact: true }).click();
    await page.getByTestId("statistics-chart-month").locator("canvas").waitFor();
    await screenshot(page, "devices-statistics-it");
  });

  for (const lang of ["zh-CN", "en-US"] as const satisfies Lang[]) {
    it(`shows the demo device's model and rated power in the list and header, the model filter finds it, and two devices' tabs say which is which (${lang})`, async () => {
      const api = await adminApi(url);
      const reported = await api.reportedBy("ESSDEMO00002");
      const page = await signedIn(lang);
      const typed = { sn: "ESSNEVER01", id: await api.idOf("ESSNEVER01") };
      await identityInListAndHeader(page, url, lang, reported, typed);
      await tabsByDevice(page, url, lang, { id: reported.id, name: "Demo 2" }, { id: typed.id, name: "Garage" });
    }, 90_000);
  }

  it("draws a device's day on its own clock, shows settings once, and keeps the bars and a form's actions in view (en-US, browser in New York)", async () => {
    const reported = await (await adminApi(url)).reportedBy("ESSDEMO00002");
    const page = await adminPage(browser, url, {
      locale: "en-US",
      timezoneId: "America/New_York",
      viewport: { width: 1400, height: 800 },
    });
    await deviceDayAndLayout(page, url, reported);
  }, 60_000);
});
