import { rmSync, writeFileSync } from "node:fs";
import { API, type CreatedDevice, type IssuedCredential, PAGE_SIZE_MAX } from "@ess/contracts";
import type { ConsoleClient } from "./console-client.ts";
import { type FleetDevice, registrationOf } from "./fleet-spec.ts";

/** The demo fleet's seed: which sites, sizes and batteries its devices get. */
export const DEMO_SEED = 1;

export const DEMO_SERIAL_PREFIX = "ESSDEMO";
export const demoSerial = (index: number) => `${DEMO_SERIAL_PREFIX}${String(index + 1).padStart(5, "0")}`;

/**
 * How long ago demo device `index` was installed: the fleet grew over the past year, so the data
 * board's installations per month have something to show. Deterministic, like the sites.
 */
export const demoInstallDaysAgo = (index: number) => (index * 47) % 330;

const DAY_MS = 86_400_000;

/**
 * Demo device `index` as the console's device form registers it: serial number, name, the model
 * of its simulated plant (which gives the phase type), the site's time zone, and its installation
 * day (midnight UTC, `demoInstallDaysAgo` days before `now`).
 */
export function demoRegistration(index: number, now = new Date()) {
  const site = registrationOf(index, DEMO_SEED);
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return {
    sn: demoSerial(index),
    name: `Demo ${index + 1}`,
    model: site.model,
    timeZone: site.timeZone,
    installedAt: new Date(today - demoInstallDaysAgo(index) * DAY_MS).toISOString(),
  };
}

/** What the simulator reads: where the broker is, the seed, and each device's credentials. */
export interface FleetFile {
  brokerUrl: string;
  seed: number;
  devices: FleetDevice[];
}

/** Ids of the demo devices registered already, by serial number. */
async function registeredDemoDevices(client: ConsoleClient): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (let current = 1; ; current++) {
    const page = await client.get<{ records: { id: number; sn: string }[]; pages: number }>(
      `${API.device.page.path}?sn=${DEMO_SERIAL_PREFIX}&sort=sn&order=asc&size=${PAGE_SIZE_MAX}&current=${current}`,
    );
    for (const device of page.records) found.set(device.sn, device.id);
    if (current >= page.pages) return found;
  }
}

/** Calls made at once: enough to register thousands quickly, few enough not to crowd the console. */
const CONCURRENCY = 4;

/**
 * Registers the demo fleet through the console's API (once: a device already registered is kept
 * as it is) and has a fresh broker secret issued for every device at each start, so no secret
 * outlives the run it was given to. `client` is signed in with the device permissions (the
 * administrator). Writes the fleet file, readable only by this user, that the simulator reads.
 */
export async function provisionDemoFleet(
  client: ConsoleClient,
  options: { count: number; brokerUrl: string; file: string; now?: Date },
): Promise<FleetFile> {
  const registered = await registeredDemoDevices(client);
  const devices: FleetDevice[] = new Array(options.count);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < options.count; index = next++) {
      const registration = demoRegistration(index, options.now);
      const id = registered.get(registration.sn);
      const credential =
        id === undefined
          ? (await client.post<CreatedDevice>(API.device.save.path, registration)).credential
          : await client.post<IssuedCredential>(API.device.resetSecret.path, { id });
      devices[index] = { sn: credential.username, secret: credential.secret, index };
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, options.count) }, worker));
  const fleet: FleetFile = { brokerUrl: options.brokerUrl, seed: DEMO_SEED, devices };
  // Made anew, so the file is this user's only even when an older one was readable by others.
  rmSync(options.file, { force: true });
  writeFileSync(options.file, JSON.stringify(fleet, null, 2), { mode: 0o600 });
  return fleet;
}
