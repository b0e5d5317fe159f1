/**
 * `npm start` with ESS_DEMO_UTILITY=1: a utility test server (apps/utility-sim) beside the console,
 * so the grid connection has someone to talk to. Its certificates live in DATA_DIR/utility-sim;
 * the console gets the aggregator's certificate, key and the CA through ESS_GRID_*. Once the demo
 * fleet is registered, its devices get an Australian NMI through the console's API (every other
 * one was registered at the utility out of band before the console started; the console registers
 * the rest itself), and the utility publishes a program with a default control and an event, so
 * the grid centre fills.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { API, PAGE_SIZE_MAX } from "@ess/contracts";
import { COUNTRY_AUSTRALIA, checkNmi, GRID_IDENTITY_DEFAULTS } from "@ess/domain";
import { siteIdentity } from "@ess/domain/grid/hashed-identity.ts";
import { consoleClient, DEMO_SERIAL_PREFIX, demoRegistration, demoSerial } from "@ess/simulator";
import { type CommsRates, ensurePki } from "@ess/utility-sim";

export interface DemoUtility {
  /** Environment that points the console at the utility. */
  consoleEnv: Record<string, string>;
  process: ChildProcess;
  controlUrl: string;
  aggregatorLfdi: string;
}

/** The demo's installer PIN (11111 and its check digit), the conformance procedures' own. */
const DEMO_PIN = 111115;

/** Demo device `index`'s NMI: an Ausgrid (NSW) range number with its checksum. */
export const demoNmi = (index: number) => {
  const check = checkNmi(`4103${String(index + 1).padStart(6, "0")}`);
  if (!check.ok) throw new Error(`No demo NMI for device ${index}`);
  return check.withChecksum;
};

async function control(url: string, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(new URL(path, url), {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "Content-Type": "application/json" },
  });
  if (!response.ok) throw new Error(`utility control ${path}: ${response.status} ${await response.text()}`);
  return response.json().catch(() => null);
}

/** The rates the demo asks for: short list rates, so sites given an NMI after the console started are picked up soon. */
export const DEMO_RATES: Partial<CommsRates> = { dcapPoll: 60, edevListPoll: 30, fsaListPoll: 60, derpListPoll: 60 };

/** Resolves to the utility's DeviceCapability and control URLs once it prints them (port 0 picks free ones). */
function announcedUrls(child: ChildProcess): Promise<{ dcapUrl: string; controlUrl: string }> {
  return new Promise((resolve, reject) => {
    let text = "";
    const exited = () => reject(new Error(`the utility test server stopped (exit code ${child.exitCode})`));
    child.once("exit", exited);
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk: string) => {
      text += chunk;
      const dcap = /DeviceCapability\s+(\S+)/.exec(text)?.[1];
      const control = /control \(JSON\)\s+(\S+)/.exec(text)?.[1];
      if (!dcap || !control) return;
      child.off("exit", exited);
      child.stdout?.resume();
      resolve({ dcapUrl: dcap, controlUrl: control.endsWith("/") ? control : `${control}/` });
    });
  });
}

/**
 * Starts the utility test server (HTTPS on `port`, control on `port + 1`; 0 picks free ports) and
 * waits until its control port answers. `rates` are the comms rates it gives the console.
 */
export async function startDemoUtility(
  root: string,
  dataDir: string,
  port: number,
  count: number,
  rates: Partial<CommsRates> = DEMO_RATES,
): Promise<DemoUtility> {
  const folder = join(dataDir, "utility-sim");
  const pki = await ensurePki(folder);
  const child = spawn(process.execPath, [join(root, "apps/utility-sim/src/main.ts")], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
    env: {
      ...process.env,
      UTILITY_SIM_PORT: String(port),
      UTILITY_SIM_CONTROL_PORT: String(port === 0 ? 0 : port + 1),
      UTILITY_SIM_DATA: folder,
    },
  });
  let urls: { dcapUrl: string; controlUrl: string };
  try {
    urls = await announcedUrls(child);
    await control(urls.controlUrl, "rates", rates);
  } catch (error) {
    child.kill("SIGTERM");
    throw new Error(`The demo utility did not start: ${(error as Error).message}`);
  }
  const { controlUrl } = urls;
  // The server certificate names localhost, not the loopback address it listens on.
  const dcapUrl = new URL(urls.dcapUrl);
  dcapUrl.hostname = "localhost";
  // The utility keeps nothing between starts: every other demo site is made known to it out of band
  // before the console asks; the console registers the others itself.
  for (let index = 0; index < count; index += 2) {
    const lfdi = siteIdentity(pki.clientLfdi, demoSerial(index), GRID_IDENTITY_DEFAULTS.pen).lfdi;
    await control(controlUrl, "end-devices", { lfdi, aggregatorLfdi: pki.clientLfdi, pin: DEMO_PIN, nmi: demoNmi(index) });
  }
  return {
    process: child,
    controlUrl,
    aggregatorLfdi: pki.clientLfdi,
    consoleEnv: {
      ESS_GRID_DCAP_URL: dcapUrl.toString(),
      ESS_GRID_CERT: pki.files.clientCertificate,
      ESS_GRID_KEY: pki.files.clientKey,
      ESS_GRID_CA: pki.files.caCertificate,
      ESS_GRID_PIN: String(DEMO_PIN),
      // The simulated inverters report their own country code setting, which the console shows
      // over the one staff typed: every demo device takes part, whatever it reports.
      ESS_GRID_SITES: "all",
    },
  };
}

/** Gives the demo devices an Australian NMI and country code (console API), and publishes a program and controls. */
export async function prepareDemoSites(
  utility: DemoUtility,
  options: { consoleUrl: string; username: string; password: string; count: number },
): Promise<void> {
  const client = consoleClient(options.consoleUrl);
  await client.signInPatiently(options.username, options.password);
  try {
    const page = await client.get<{ records: { id: number; sn: string }[] }>(
      `${API.device.page.path}?sn=${DEMO_SERIAL_PREFIX}&sort=sn&order=asc&size=${PAGE_SIZE_MAX}&current=1`,
    );
    for (let index = 0; index < options.count; index++) {
      const { sn, ...fields } = demoRegistration(index);
      const id = page.records.find((d) => d.sn === sn)?.id;
      if (id === undefined) continue;
      const nmi = demoNmi(index);
      await client.post(API.device.edit.path, { id, ...fields, countryCode: COUNTRY_AUSTRALIA, nmi, gridCompany: "Ausgrid" });
    }
  } finally {
    await client.signOut().catch(() => undefined);
  }
  const program = (await control(utility.controlUrl, "programs", { primacy: 1, description: "Demo dynamic export" })) as {
    id: number;
  };
  await control(utility.controlUrl, `programs/${program.id}/default-control`, {
    DERControlBase: { opModExpLimW: { value: 50, multiplier: 2 }, opModImpLimW: { value: 100, multiplier: 2 } },
    setGradW: 27,
  });
  const now = Math.floor(Date.now() / 1000);
  await control(utility.controlUrl, "controls", {
    programId: program.id,
    start: now + 120,
    duration: 1800,
    base: { opModExpLimW: { value: 0, multiplier: 0 } },
    description: "Demo zero export",
  });
}
