import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import {
  consoleClient,
  demoRegistration,
  type FleetFile,
  provisionDemoFleet,
  type SimulatorProcess,
  startDemoFleet,
} from "@ess/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { tempDataDir } from "../helpers/server-process.ts";

// The demo fleet is provisioned beside the console as `npm start` does it: over HTTP, signed in as
// the administrator through the slide verification (captcha on, as `npm start` runs the console).
let runtime: Runtime;
let simulator: SimulatorProcess | undefined;
beforeAll(async () => {
  runtime = await startTestRuntime({ ESS_CAPTCHA: "on" });
}, 120_000);
afterAll(async () => {
  await simulator?.stop();
  await runtime.close();
});

const admin = async () => {
  const client = consoleClient(runtime.url);
  await client.signIn("admin", "Admin12345");
  return client;
};
const readFleet = (file: string) => JSON.parse(readFileSync(file, "utf8")) as FleetFile;
const demoRows = async () =>
  (
    await runtime.db.query<{ sn: string; name: string; phase_type: number; time_zone: string; installed_at: Date }>(
      "SELECT sn, name, phase_type, time_zone, installed_at FROM device WHERE sn LIKE 'ESSDEMO%' ORDER BY sn",
    )
  ).rows;
const framesReceived = async () => {
  const text = await runtime.app.inject({ method: "GET", url: "/metrics" }).then((r) => r.body);
  return Number(/ess_mqtt_messages_total\{kind="telemetry"\} (\d+)/.exec(text)?.[1] ?? 0);
};

describe("the demo fleet beside the console", () => {
  it("registers its devices once through the API, with fresh secrets at each start in a private file", async () => {
    const file = join(tempDataDir(), "demo-fleet.json");
    const client = await admin();
    const first = await provisionDemoFleet(client, { count: 3, brokerUrl: runtime.brokerUrl, file });
    const second = await provisionDemoFleet(client, { count: 3, brokerUrl: runtime.brokerUrl, file });

    const rows = await demoRows();
    expect(rows.map((r) => r.sn)).toEqual(["ESSDEMO00001", "ESSDEMO00002", "ESSDEMO00003"]);
    // What the simulated plants are: name, phase type of the model, site's time zone, installation day.
    rows.forEach((row, index) => {
      const expected = demoRegistration(index);
      expect(row).toMatchObject({ name: `Demo ${index + 1}`, time_zone: expected.timeZone });
      expect(row.phase_type).toBe(expected.model.startsWith("H3-") ? 2 : 1);
      expect(row.installed_at.toISOString()).toBe(expected.installedAt);
    });
    expect(rows.map((r) => r.phase_type)).toEqual([1, 2, 1]);
    expect(rows[1]?.installed_at.getTime()).toBeLessThan(rows[0]?.installed_at.getTime() as number);

    expect(statSync(file).mode & 0o077).toBe(0);
    expect(readFleet(file)).toEqual(second);
    expect(second.devices.map((d) => d.sn)).toEqual(rows.map((r) => r.sn));
    second.devices.forEach((device, i) => {
      expect(device.secret).not.toBe(first.devices[i]?.secret);
    });
    // Each secret issued went through the console's route, so it is in the operation log.
    const resets = async () =>
      (
        await runtime.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM sys_log WHERE request_uri = '/admin/lsydevice/resetSecret'",
        )
      ).rows[0]?.n;
    await expect.poll(resets, { timeout: 5000 }).toBe(3);
  }, 60_000);

  it("runs the simulator as a child process whose devices connect with the secrets issued and report on the interval", async () => {
    const file = join(tempDataDir(), "demo-fleet.json");
    const before = await framesReceived();
    simulator = await startDemoFleet({
      consoleUrl: runtime.url,
      brokerUrl: runtime.brokerUrl,
      username: "admin",
      password: "Admin12345",
      count: 3,
      file,
      intervalMs: 200,
    });
    await expect.poll(framesReceived, { timeout: 20_000 }).toBeGreaterThanOrEqual(before + 9);
    await expect
      .poll(
        async () =>
          (
            await runtime.db.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM device WHERE sn LIKE 'ESSDEMO%' AND online_status = 1",
            )
          ).rows[0]?.n,
        { timeout: 10_000 },
      )
      .toBe(3);
    await simulator.stop();
    simulator = undefined;
  }, 60_000);
});
