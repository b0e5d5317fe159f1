import type { ServerProcess } from "@ess/server/testing";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchBrowser, screenshot } from "../src/browser.ts";
import { adminPage, startFleetConsole } from "../src/console-server.ts";

/**
 * The console with two simulated devices reporting every second and one registered device that
 * never connects: device 1 (offline), 2 (single phase, Rome), 3 (three phase, Munich).
 */
describe.skipIf(!CHROMIUM)("a device's live data on its details page in Chromium", () => {
  let browser: Browser;
  let server: ServerProcess;
  let url: string;

  beforeAll(async () => {
    ({ url, server } = await startFleetConsole({
      prefix: "ess-e2e-live-",
      devices: 2,
      intervalMs: 1000,
      seed: async (db) => {
        await db.query(
          "INSERT INTO device (tenant_id, sn, name, phase_type, time_zone) VALUES (1, 'ESSNEVER01', 'Garage', 2, 'Europe/Rome')",
        );
      },
    }));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const signedIn = () => adminPage(browser, url, { viewport: { width: 1280, height: 720 } });

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
    // The tab names the device and the page, in the chosen language once the page's labels have arrived.
    await expect
      .poll(() => page.locator('[data-testid="tab"][data-path="/device/details/3"]').textContent())
      .toBe("Demo 2 · Device details");
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
