import type { VirtualDevice } from "@ess/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { apiCaller } from "../helpers/api-caller.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { manualDevice } from "../helpers/sim.ts";
import { signIn } from "../helpers/test-app.ts";

type Check = { id: number; state: number; finishedAt: number | null };

describe("device self-check", () => {
  let runtime: Runtime;
  let token: string;
  let sim: VirtualDevice;
  let deviceId: number;
  const call = apiCaller(
    () => runtime.app,
    () => token,
  );

  beforeAll(async () => {
    runtime = await startTestRuntime({ ESS_REPEAT_GUARD_MS: "0" });
    token = await signIn(runtime.app);
    const d = await registerDevice(runtime.db, { sn: uniqueSerial("CHK"), phaseType: 2, timeZone: "Europe/Rome" });
    deviceId = d.id;
    sim = await manualDevice(runtime, d, "three", "rome");
  });
  afterAll(async () => {
    await sim.stop();
    await runtime.close();
  });

  it("starts a check, follows it from checking to done in the device's readings, and exports the report", async () => {
    const t0 = Date.now();
    await sim.publishFrame(t0);
    const online = async () =>
      (await runtime.db.query<{ s: number }>("SELECT online_status AS s FROM device WHERE id = $1", [deviceId])).rows[0]?.s;
    await expect.poll(online).toBe(1);
    const started = await call<Check>("POST", "/admin/device/selfcheck/start", { deviceId });
    expect(started.body.data).toMatchObject({ state: 1, finishedAt: null });
    const page = async () =>
      (await call<{ records: Check[] }>("GET", `/admin/device/selfcheck/page?deviceId=${deviceId}`)).body.data.records[0];
    // Still checking in a reading a few seconds later, done in one after the check's 20 s.
    await sim.publishFrame(Date.now() + 5_000);
    expect((await page())?.state).toBe(1);
    await sim.publishFrame(Date.now() + 30_000);
    await expect.poll(async () => (await page())?.state, { timeout: 5000 }).toBe(3);
    const report = await runtime.app.inject({
      method: "GET",
      url: `/admin/device/selfcheck/report?deviceId=${deviceId}`,
      headers: { authorization: `Bearer ${token}`, "accept-language": "en-US" },
    });
    expect(report.headers["content-type"]).toContain("text/csv");
    expect(report.body).toContain("Self inspection completed");
  });

  it("refuses an offline device and a model without remote self-check", async () => {
    const offline = await registerDevice(runtime.db, { sn: uniqueSerial("CHO"), phaseType: 2 });
    expect((await call("POST", "/admin/device/selfcheck/start", { deviceId: offline.id })).body.msg).toBe("Device is Offline");
    const single = await registerDevice(runtime.db, { sn: uniqueSerial("CHS"), phaseType: 1 });
    expect((await call("POST", "/admin/device/selfcheck/start", { deviceId: single.id })).body.msg).toBe(
      "This model has no remote self-check",
    );
  });
});
