import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COUNTRY_AUSTRALIA, checkNmi, GRID_IDENTITY_DEFAULTS } from "@ess/domain";
import { siteIdentity } from "@ess/domain/grid/hashed-identity.ts";
import {
  createCertificateAuthority,
  identityOfCertificate,
  issueClientCertificate,
  issueServerCertificate,
} from "@ess/sep2/certificates.ts";
import { cloudCover, localTime, siteById, VirtualDevice } from "@ess/simulator";
import { type CommsRates, startUtilitySim, type UtilitySim } from "@ess/utility-sim";
import { loadConfig } from "../../src/config/config.ts";
import { type Runtime, startRuntime } from "../../src/runtime.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { freePort, tempDataDir } from "../helpers/server-process.ts";
import { plantFor } from "../helpers/sim.ts";
import { freshDatabaseUrl } from "../helpers/test-db.ts";

/**
 * A whole console (HTTP, broker, database, grid client) talking to the utility test server over
 * HTTPS with client certificates, in real time with poll rates of a second or two, and a fleet of
 * Australian simulated devices (NMI, country code) on its broker, reporting every second. The
 * console can be closed and started again on the same database, data folder and ports, as a
 * restarted console would be: the devices reconnect on their own.
 */

/** Fast enough that a control reaches the sites within a couple of seconds. */
export const FAST_RATES: Partial<CommsRates> = {
  dcapPoll: 2,
  edevListPoll: 1,
  fsaListPoll: 1,
  derpListPoll: 1,
  derListPoll: 1,
};

/** Site `index`'s NMI: an Ausgrid (NSW) range number with its checksum. */
export function fleetNmi(index: number): string {
  const check = checkNmi(`4103${String(index + 1).padStart(6, "0")}`);
  if (!check.ok) throw new Error(`no NMI for site ${index}`);
  return check.withChecksum;
}

/**
 * Device time minus real time (ms, negative): the devices' clock is the real one moved back to the
 * last clear Sydney midday, so their panels produce well beyond any export limit whenever the test runs
 * (their readings are then hours old, which the console takes as any reading within its retention).
 */
export function middayOffsetMs(now = Date.now()): number {
  const utcHourOfSydneyNoon = 2;
  const day = 86_400_000;
  const todayNoon = Math.floor(now / day) * day + utcHourOfSydneyNoon * 3_600_000;
  let noon = todayNoon <= now ? todayNoon : todayNoon - day;
  // The simulator draws each day's weather from the site and the date: under a cloudy day's sky the
  // panels need not export past the limit, so the last clear midday of the past week is taken.
  const sydney = siteById("sydney");
  const clear = (at: number) =>
    Array.from({ length: 30 }, (_, m) => at + m * 60_000).every(
      (t) => cloudCover(sydney, t, localTime(t, sydney.timeZone).day) < 0.2,
    );
  for (let back = 0; back < 7 && !clear(noon); back++) noon -= day;
  return noon - now;
}

export interface FleetSite {
  id: number;
  sn: string;
  nmi: string;
  product: "single" | "three";
  lfdi: string;
  sim: VirtualDevice;
}

export interface ControlledFleet {
  utility: UtilitySim;
  readonly runtime: Runtime;
  sites: FleetSite[];
  /** Device time minus real time (ms). */
  offsetMs: number;
  /** Closes the console and starts it again on the same database and ports. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startControlledFleet(options: { sites: number; reportEveryMs?: number }): Promise<ControlledFleet> {
  const ca = await createCertificateAuthority({ commonName: "Fleet test utility CA" });
  const server = await issueServerCertificate(ca, { commonName: "utility" });
  const aggregator = await issueClientCertificate(ca, { commonName: "console aggregator" });
  const utility = await startUtilitySim({
    tls: { ca: ca.certificatePem, cert: server.certificatePem, key: server.privateKeyPem },
  });
  utility.control.setRates(FAST_RATES);
  const dir = mkdtempSync(join(tmpdir(), "grid-fleet-"));
  const files = { ESS_GRID_CERT: join(dir, "cert.pem"), ESS_GRID_KEY: join(dir, "key.pem"), ESS_GRID_CA: join(dir, "ca.pem") };
  writeFileSync(files.ESS_GRID_CERT, aggregator.certificatePem);
  writeFileSync(files.ESS_GRID_KEY, aggregator.privateKeyPem);
  writeFileSync(files.ESS_GRID_CA, ca.certificatePem);
  const aggregatorLfdi = identityOfCertificate(aggregator.certificatePem).lfdi;

  // PGlite in the data folder, or a database of its own on TEST_DATABASE_URL: both outlive a restart.
  const database = await freshDatabaseUrl();
  const config = loadConfig({
    PORT: String(await freePort()),
    MQTT_PORT: String(await freePort()),
    DATA_DIR: tempDataDir("ess-grid-fleet-"),
    LOG_LEVEL: "silent",
    ESS_ADMIN_PASSWORD: "Admin12345",
    NODE_ENV: "test",
    ESS_CAPTCHA: "off",
    ESS_IDENTITY_READ_MS: "0",
    ESS_REPEAT_GUARD_MS: "0",
    ESS_GRID_DCAP_URL: utility.dcapUrl,
    ...files,
    ...(database ? { DATABASE_URL: database.url } : {}),
  });
  let runtime = await startRuntime(config);

  const offsetMs = middayOffsetMs();
  const sydney = siteById("sydney");
  const prefix = uniqueSerial("AUF");
  const sites: FleetSite[] = [];
  for (let i = 0; i < options.sites; i++) {
    const product = i % 2 === 0 ? "three" : "single";
    const sn = `${prefix}${String(i).padStart(3, "0")}`;
    const nmi = fleetNmi(i);
    const d = await registerDevice(runtime.db, { sn, phaseType: product === "three" ? 2 : 1, timeZone: sydney.timeZone });
    await runtime.db.query("UPDATE device SET country_code = $2, nmi = $3 WHERE id = $1", [d.id, COUNTRY_AUSTRALIA, nmi]);
    const sim = new VirtualDevice(
      d,
      { ...plantFor(sn, product, "sydney", 100 + i) },
      {
        brokerUrl: runtime.brokerUrl,
        intervalMs: options.reportEveryMs ?? 1000,
        clock: () => Date.now() + offsetMs,
      },
    );
    // A full battery: what the panels make beyond the house goes to the grid.
    sim.brain.plant.state.soc = 100;
    const lfdi = siteIdentity(aggregatorLfdi, sn, GRID_IDENTITY_DEFAULTS.pen).lfdi;
    sites.push({ id: d.id, sn, nmi, product, lfdi, sim });
  }
  await Promise.all(sites.map((s) => s.sim.start()));

  return {
    utility,
    get runtime() {
      return runtime;
    },
    sites,
    offsetMs,
    async restart() {
      await runtime.close();
      // The same ports (the devices come back to them): the closed broker's may take a moment to free.
      for (let attempt = 1; ; attempt++) {
        try {
          runtime = await startRuntime(config);
          return;
        } catch (error) {
          if (attempt >= 10 || !/already in use/.test(String(error))) throw error;
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
    },
    async close() {
      await Promise.all(sites.map((s) => s.sim.stop()));
      await runtime.close();
      await utility.close();
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
