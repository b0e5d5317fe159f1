import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PRODUCT } from "@ess/domain";
import { registrationOf } from "@ess/simulator";
import type { Db } from "../db/db.ts";
import { issueDeviceSecret } from "../mqtt/device-credentials.ts";

const SIMULATOR_MAIN = fileURLToPath(new URL("../../../simulator/src/main.ts", import.meta.url));

export const demoSerial = (index: number) => `ESSDEMO${String(index + 1).padStart(5, "0")}`;

/**
 * How long ago demo device `index` was installed: the fleet grew over the past year, so the data
 * board's installations per month have something to show. Deterministic, like the sites.
 */
export const demoInstallDaysAgo = (index: number) => (index * 47) % 330;

/** The demo fleet's seed: which sites, sizes and batteries its devices get (see the simulator). */
export const DEMO_SEED = 1;

/**
 * Registers the demo devices (once) with the phase type and time zone of their simulated site,
 * and issues them fresh broker secrets at every start; the secrets go to a file readable only by
 * this user, which the simulator reads.
 */
export async function provisionDemoFleet(db: Db, count: number, dataDir: string, brokerUrl: string): Promise<string> {
  const devices: { sn: string; secret: string; index: number }[] = [];
  for (let i = 0; i < count; i++) {
    const sn = demoSerial(i);
    const site = registrationOf(i, DEMO_SEED);
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO device (tenant_id, sn, name, phase_type, time_zone, installed_at)
       VALUES ($1, $2, $3, $4, $5, date_trunc('day', now()) - make_interval(days => $6))
       ON CONFLICT (sn) WHERE deleted_at IS NULL DO UPDATE SET updated_at = device.updated_at
       RETURNING id`,
      [PRODUCT.defaultTenantId, sn, `Demo ${i + 1}`, site.phaseType, site.timeZone, demoInstallDaysAgo(i)],
    );
    devices.push({ sn, secret: await issueDeviceSecret(db, rows[0]?.id as number), index: i });
  }
  const file = resolve(join(dataDir, "demo-fleet.json"));
  writeFileSync(file, JSON.stringify({ brokerUrl, seed: DEMO_SEED, devices }, null, 2), { mode: 0o600 });
  return file;
}

/** Runs the simulator as a child process; it stops with the server. */
export function startSimulator(fleetFile: string, log: (line: string) => void, intervalMs = 10_000): { stop(): Promise<void> } {
  const child: ChildProcess = spawn(process.execPath, [SIMULATOR_MAIN, "--fleet", fleetFile, "--interval", String(intervalMs)], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  child.on("exit", (code, signal) => {
    if (code !== 0 && signal === null) log(`The demo fleet simulator stopped (exit code ${code}).`);
  });
  return {
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once("exit", () => done());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 1500).unref();
      }),
  };
}
