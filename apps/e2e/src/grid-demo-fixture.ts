import { fileURLToPath } from "node:url";
import { GRID_IDENTITY_DEFAULTS } from "@ess/domain";
import { siteIdentity } from "@ess/domain/grid/hashed-identity.ts";
import { tempDataDir } from "@ess/server/testing";
import { demoSerial } from "@ess/simulator";
import type { CommsRates } from "@ess/utility-sim";
import { type DemoUtility, demoNmi, prepareDemoSites, startDemoUtility } from "../../../scripts/demo-utility.ts";
import { startFleetConsole } from "./console-server.ts";
import { ADMIN_PASSWORD } from "./shell-fixture.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** Rates of a second or two, so every list is read and every mirror posted within seconds. */
const FAST_RATES: CommsRates = {
  dcapPoll: 2,
  edevListPoll: 2,
  fsaListPoll: 2,
  derpListPoll: 2,
  derListPoll: 2,
  mupPost: 2,
  edevPost: 2,
};

/** What the test expects of demo device `index` in the centre. */
export interface DemoSite {
  sn: string;
  nmi: string;
  lfdi: string;
}

/**
 * `ESS_DEMO_UTILITY=1 npm start` in small: the demo utility (on free ports, with fast rates), the
 * console as the fleet's aggregator towards it, `count` demo devices registered and reporting as
 * `npm start` runs them, then given their NMIs and a program as the start script does.
 */
export async function startGridDemo(count: number) {
  const utility: DemoUtility = await startDemoUtility(ROOT, tempDataDir("ess-e2e-utility-"), 0, count, FAST_RATES);
  const stopUtility = () =>
    new Promise<void>((resolve) => {
      if (utility.process.exitCode !== null || utility.process.signalCode !== null) return resolve();
      utility.process.once("exit", () => resolve());
      utility.process.kill("SIGTERM");
    });
  let console_: Awaited<ReturnType<typeof startFleetConsole>>;
  try {
    console_ = await startFleetConsole({ prefix: "ess-e2e-grid-", devices: count, intervalMs: 1000, env: utility.consoleEnv });
  } catch (error) {
    await stopUtility();
    throw error;
  }
  const stop = async () => {
    await console_.server.stop().catch(() => undefined);
    await stopUtility();
  };
  try {
    await prepareDemoSites(utility, { consoleUrl: console_.url, username: "admin", password: ADMIN_PASSWORD, count });
  } catch (error) {
    await stop();
    throw error;
  }
  const sites: DemoSite[] = Array.from({ length: count }, (_, index) => ({
    sn: demoSerial(index),
    nmi: demoNmi(index),
    lfdi: siteIdentity(utility.aggregatorLfdi, demoSerial(index), GRID_IDENTITY_DEFAULTS.pen).lfdi,
  }));
  return { url: console_.url, sites, stop, controlUrl: utility.controlUrl };
}
