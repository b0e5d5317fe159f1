import { readFileSync, statSync } from "node:fs";
import { startFleet } from "@ess/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { provisionDemoFleet } from "../../src/demo/demo-fleet.ts";
import type { Runtime } from "../../src/runtime.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { tempDataDir } from "../helpers/server-process.ts";

let runtime: Runtime;
beforeAll(async () => {
  runtime = await startTestRuntime();
});
afterAll(() => runtime.close());

const framesReceived = async () => {
  const text = await runtime.app.inject({ method: "GET", url: "/metrics" }).then((r) => r.body);
  return Number(/ess_mqtt_messages_total\{kind="telemetry"\} (\d+)/.exec(text)?.[1] ?? 0);
};

describe("the demo fleet", () => {
  it("registers its devices once and gives each a private credential file", async () => {
    const dir = tempDataDir();
    const file = await provisionDemoFleet(runtime.db, 3, dir, runtime.brokerUrl);
    await provisionDemoFleet(runtime.db, 3, dir, runtime.brokerUrl);
    const { rows } = await runtime.db.query<{ n: number }>("SELECT count(*)::int AS n FROM device WHERE sn LIKE 'ESSDEMO%'");
    expect(rows[0]?.n).toBe(3);
    expect(statSync(file).mode & 0o077).toBe(0);
    const fleet = JSON.parse(readFileSync(file, "utf8"));
    expect(fleet.devices.map((d: { sn: string }) => d.sn)).toEqual(["ESSDEMO00001", "ESSDEMO00002", "ESSDEMO00003"]);
  });

  it("connects every simulated device and delivers its frames on the interval", async () => {
    const file = await provisionDemoFleet(runtime.db, 3, tempDataDir(), runtime.brokerUrl);
    const { devices, brokerUrl } = JSON.parse(readFileSync(file, "utf8"));
    const before = await framesReceived();
    const fleet = await startFleet({ brokerUrl, devices, intervalMs: 200 });
    try {
      await expect.poll(framesReceived, { timeout: 10_000 }).toBeGreaterThanOrEqual(before + 9);
      await expect
        .poll(
          async () =>
            (
              await runtime.db.query<{ n: number }>(
                "SELECT count(*)::int AS n FROM device WHERE sn LIKE 'ESSDEMO%' AND last_seen_at IS NOT NULL",
              )
            ).rows[0]?.n,
          { timeout: 5000 },
        )
        .toBe(3);
      await expect.poll(() => fleet.devices.every((d) => d.framesSent >= 3), { timeout: 5000 }).toBe(true);
    } finally {
      await fleet.stop();
    }
  });
});
