import { join } from "node:path";
import { migrate } from "@ess/server/internal/db/migrate.ts";
import { openPglite } from "@ess/server/internal/db/pglite.driver.ts";
import { type ServerProcess, startServerProcess, tempDataDir } from "@ess/server/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchBrowser, screenshot } from "../src/browser.ts";
import { E2E_ADMIN_PASSWORD } from "../src/console-server.ts";

/**
 * The console with two simulated devices reporting every second and one registered device that
 * never connects: device 1 (offline), 2 (single phase, Rome), 3 (three phase, Munich).
 */
describe.skipIf(!CHROMIUM)("a device's live data on its details page in Chromium", () => {
  let browser: Browser;
  let server: ServerProcess;
  let url: string;

  beforeAll(async () => {
    const dataDir = tempDataDir("ess-e2e-live-");
    const db = await openPglite(join(dataDir, "pgdata"));
    await migrate(db);
    await db.query("INSERT INTO tenant (id, name) VALUES (1, 'Default') ON CONFLICT (id) DO NOTHING");
    await db.query(
      "INSERT INTO device (tenant_id, sn, name, phase_type, time_zone) VALUES (1, 'ESSNEVER01', 'Garage', 2, 'Europe/Rome')",
    );
    await db.close();
    server = startServerProcess({
      DATA_DIR: dataDir,
      ESS_ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
      ESS_DEMO_DEVICES: "2",
      ESS_DEMO_INTERVAL_MS: "1000",
    });
    url = await server.ready();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const signedIn = async (): Promise<Page> => {
    const page = await browser.newPage({ locale: "en-US" });
    await page.goto(url);
    await page.getByTestId("login-username").fill("admin");
    await page.getByTestId("login-password").fill(E2E_ADMIN_PASSWORD);
    await page.getByTestId("login-submit").click();
    await page.waitForURL(/#\/wel\/index$/);
    return page;
  };

  it("shows a reporting device's values changing as it reports, and a page read answering", async () => {
    const page = await signedIn();
    // Readings arrive as pushes on the gateway (STOMP over /act/ws), not by polling.
    const pushes: string[] = [];
    page.on("websocket", (ws) =>
      ws.on("framereceived", (frame) => {
        const text = String(frame.payload);
        if (text.startsWith("MESSAGE") && text.includes("destination:/device/3/live/backOffice")) pushes.push(text);
      }),
    );
    // An old link to the live page lands on the details page, whose first tab is the live data.
    await page.goto(`${url}#/device/live/3`);
    await page.waitForURL(/#\/device\/details\/3$/);
    await expect.poll(() => page.getByTestId("device-online").textContent(), { timeout: 15_000 }).toBe("Online");
    // The tab names the page in the chosen language once the page's labels have arrived.
    await expect
      .poll(() => page.locator('[data-testid="tab"][data-path="/device/details/3"]').textContent())
      .toBe("Device details");
    expect(await page.locator('[data-testid="tab"][data-path="/device/live/3"]').count()).toBe(0);
    expect(await page.locator('.ant-tabs-tab-active[data-node-key="live"]').textContent()).toBe("Device live data");
    const readingTime = () => page.getByTestId("reading-time").textContent();
    const loadPower = () => page.getByTestId("live-load_power").textContent();
    await expect.poll(readingTime, { timeout: 10_000 }).not.toBe("—");
    const first = { time: await readingTime(), load: await loadPower() };
    await expect.poll(readingTime, { timeout: 10_000 }).not.toBe(first.time);
    // The household's load moves from one second to the next (appliances, flicker).
    await expect.poll(loadPower, { timeout: 10_000 }).not.toBe(first.load);
    expect(Number((await loadPower())?.replace(/[^\d.-]/g, ""))).toBeGreaterThan(0);
    await expect.poll(() => pushes.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);

    await page.getByTestId("page-read").click();
    const answer = page.getByTestId("page-read-answer");
    await expect.poll(() => answer.isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => answer.getByRole("cell", { name: "Battery SOC", exact: true }).first().isVisible()).toBe(true);
    await screenshot(page, "device-live-three-phase-en-US");
  });

  it("says the device is offline, on the page and when a page read is asked of it", async () => {
    const page = await signedIn();
    await page.goto(`${url}#/device/details/1`);
    await expect.poll(() => page.getByTestId("device-online").textContent(), { timeout: 10_000 }).toBe("Offline");
    await expect
      .poll(() => page.getByTestId("device-offline").textContent())
      .toContain("Device offline. The values below are the last ones it sent.");
    await page.getByTestId("page-read").click();
    await expect.poll(() => page.getByTestId("page-read-error").textContent(), { timeout: 10_000 }).toBe("Device is Offline");
    await screenshot(page, "device-live-offline-en-US");
  });
});
