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
  const sims: VirtualDevice[] = [];
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
    await Promise.all([sim, ...sims].map((s) => s.stop()));
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

  it("follows a single-phase device's check to done, and to failed when an item fails", async () => {
    const online = async (id: number) =>
      (await runtime.db.query<{ s: number }>("SELECT online_status AS s FROM device WHERE id = $1", [id])).rows[0]?.s;
    const startAndFinish = async (fault: number | null) => {
      const d = await registerDevice(runtime.db, { sn: uniqueSerial("CH1"), phaseType: 1, timeZone: "Europe/Rome" });
      const single = await manualDevice(runtime, d, "single", "rome");
      sims.push(single);
      await single.publishFrame();
      await expect.poll(() => online(d.id)).toBe(1);
      const started = await call<Check>("POST", "/admin/device/selfcheck/start", { deviceId: d.id });
      expect(started.body.data).toMatchObject({ state: 1, finishedAt: null });
      expect(single.brain.settings.selfCheckEnable).toBe(1);
      const latest = async () =>
        (await call<{ records: Check[] }>("GET", `/admin/device/selfcheck/page?deviceId=${d.id}`)).body.data.records[0];
      await single.publishFrame(Date.now() + 5_000);
      expect((await latest())?.state).toBe(1);
      if (fault !== null) await single.injectFault(fault, Date.now() + 10_000);
      await single.publishFrame(Date.now() + 30_000);
      await expect.poll(async () => (await latest())?.state, { timeout: 5000 }).toBe(fault === null ? 3 : 2);
      expect((await latest())?.finishedAt).not.toBeNull();
    };
    await startAndFinish(null);
    // PV input overvoltage: bit 0 of the single-phase self-inspection word.
    await startAndFinish(1101);
  });

  it("refuses an offline device and a device of unknown model", async () => {
    const offline = await registerDevice(runtime.db, { sn: uniqueSerial("CHO"), phaseType: 2 });
    expect((await call("POST", "/admin/device/selfcheck/start", { deviceId: offline.id })).body.msg).toBe("Device is Offline");
    const unknown = await registerDevice(runtime.db, { sn: uniqueSerial("CHS") });
    expect((await call("POST", "/admin/device/selfcheck/start", { deviceId: unknown.id })).body.msg).toBe(
      "This model has no remote self-check",
    );
  });
});
