import { join } from "node:path";
import { tempDataDir } from "@ess/server/testing";
import { type SimulatorProcess, startDemoFleet } from "@ess/simulator";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, openTab } from "./browser.ts";
import { ADMIN_PASSWORD, signIn, startShellConsole } from "./shell-fixture.ts";

/**
 * The demo fleet beside a running console, as `npm start` runs it: `count` devices registered
 * through the console's API as the administrator, their secrets in `dataDir`, and the simulator in
 * a process of its own reporting every `intervalMs`.
 */
export function runDemoFleet(
  console_: { url: string; brokerUrl: string; dataDir: string },
  count: number,
  intervalMs = 2000,
): Promise<SimulatorProcess> {
  return startDemoFleet({
    consoleUrl: console_.url,
    brokerUrl: console_.brokerUrl,
    username: "admin",
    password: ADMIN_PASSWORD,
    count,
    file: join(console_.dataDir, "demo-fleet.json"),
    intervalMs,
  });
}

/**
 * A console with the demo fleet as `npm start` runs it (`count` devices in a simulator process,
 * reporting every 2 s), a browser, and the device settings panel opened on one of its tabs.
 */
export async function startSettingsFleet(prefix: string, count: number) {
  const dataDir = tempDataDir(prefix);
  const console_ = await startShellConsole({ DATA_DIR: dataDir });
  const simulator = await runDemoFleet({ url: console_.url, brokerUrl: console_.runtime.brokerUrl, dataDir }, count);
  let browser: Browser | undefined;
  return {
    console_,
    db: () => console_.runtime.db,
    /** The first online device of the phase type (1 single, 2 three), once it has reported. */
    async onlineDevice(phaseType: 1 | 2): Promise<number> {
      for (let i = 0; i < 60; i++) {
        const { rows } = await console_.runtime.db.query<{ id: number }>(
          "SELECT id FROM device WHERE phase_type = $1 AND online_status = 1 ORDER BY id",
          [phaseType],
        );
        if (rows[0]) return rows[0].id;
        await new Promise((r) => setTimeout(r, 500));
      }
      throw new Error(`no demo device of phase type ${phaseType} came online`);
    },
    /** Signs in and opens the settings panel of `deviceId` on `tab` (the console in the browser's language `locale`). */
    async open(deviceId: number, tab: string, viewport = { width: 1400, height: 1000 }, locale = "en-US"): Promise<Page> {
      browser ??= await launchBrowser();
      const page = await browser.newPage({ locale, timezoneId: "UTC", viewport });
      await signIn(page, console_.url);
      await page.goto(`${console_.url}#/device/settings/${deviceId}`);
      await openTab(page, `settings-tab-${tab}`);
      return page;
    },
    async stop() {
      await browser?.close();
      await simulator.stop();
      await console_.stop();
    },
  };
}
