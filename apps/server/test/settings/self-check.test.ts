import type { VirtualDevice } from "@ess/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { apiCaller } from "../helpers/api-caller.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { manualDevice } from "../helpers/sim.ts";
import { signIn } from "../helpers/test-app.ts";

type Item = {
  item: number;
  outcome: string;
  setThreshold: number | null;
  setTimeMs: number | null;
  actualThreshold: number | null;
  actualTimeMs: number | null;
};
type Check = {
  id: number;
  state: number;
  finishedAt: number | null;
  items: Item[];
  progress: { done: number; total: number } | null;
};

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

  it("starts a check, follows it item by item to done with each result and its values, and exports the report", async () => {
    let at = Date.now();
    await sim.publishFrame(at);
    const online = async () =>
      (await runtime.db.query<{ s: number }>("SELECT online_status AS s FROM device WHERE id = $1", [deviceId])).rows[0]?.s;
    await expect.poll(online).toBe(1);
    const started = await call<Check>("POST", "/admin/device/selfcheck/start", { deviceId });
    expect(started.body.data).toMatchObject({ state: 1, finishedAt: null, progress: { done: 0, total: 8 } });
    expect(started.body.data.items.map((i) => i.outcome)).toEqual(Array(8).fill("pending"));
    const page = async () =>
      (await call<{ records: Check[] }>("GET", `/admin/device/selfcheck/page?deviceId=${deviceId}`)).body.data.records[0];
    const report2s = async () => {
      at += 2000;
      await sim.publishFrame(at);
    };
    // The device reports one reading per item: 59.S1 under test, then 59.S2 with 59.S1 behind it.
    await report2s();
    await expect.poll(async () => (await page())?.items[0]?.outcome).toBe("running");
    await report2s();
    await expect.poll(async () => (await page())?.progress).toEqual({ done: 1, total: 8 });
    const second = await page();
    expect(second?.items.map((i) => i.outcome)).toEqual(["passed", "running", ...Array(6).fill("pending")]);
    expect(second?.state).toBe(1);
    for (let item = 3; item <= 9; item++) await report2s();
    await expect.poll(async () => (await page())?.state, { timeout: 5000 }).toBe(3);
    const done = await page();
    expect(done?.progress).toBeNull();
    expect(done?.items.map((i) => i.outcome)).toEqual(Array(8).fill("passed"));
    // 59.S1: the first overvoltage stage, set at 253 V and 3 s, tripped close to it a few ms late.
    const first = done?.items[0] as Item;
    expect(first).toMatchObject({ item: 1, setThreshold: 253, setTimeMs: 3000 });
    expect(Math.abs((first.actualThreshold ?? 0) - 253)).toBeLessThan(1);
    expect(first.actualTimeMs).toBeGreaterThan(3000);
    expect(done?.items[7]).toMatchObject({ item: 8, setThreshold: 47.5, setTimeMs: 100 });
    const report = await runtime.app.inject({
      method: "GET",
      url: `/admin/device/selfcheck/report?deviceId=${deviceId}`,
      headers: { authorization: `Bearer ${token}`, "accept-language": "en-US" },
    });
    expect(report.headers["content-type"]).toContain("text/csv");
    expect(report.body).toContain("Self inspection completed");
    expect(report.body).toContain("Overvoltage stage 1 (59.S1),Passed,253,3000,");
    expect(report.body.split("\n").filter((l) => l.includes("Passed"))).toHaveLength(8);
  });

  it("a device in fault fails the item it reaches and runs no further; the record keeps where it stopped", async () => {
    const d = await registerDevice(runtime.db, { sn: uniqueSerial("CHF"), phaseType: 2, timeZone: "Europe/Rome" });
    const faulty = await manualDevice(runtime, d, "three", "rome");
    sims.push(faulty);
    let at = Date.now();
    await faulty.publishFrame(at);
    await expect
      .poll(
        async () =>
          (await runtime.db.query<{ s: number }>("SELECT online_status AS s FROM device WHERE id = $1", [d.id])).rows[0]?.s,
      )
      .toBe(1);
    await call<Check>("POST", "/admin/device/selfcheck/start", { deviceId: d.id });
    const latest = async () =>
      (await call<{ records: Check[] }>("GET", `/admin/device/selfcheck/page?deviceId=${d.id}`)).body.data.records[0];
    const report2s = async () => {
      at += 2000;
      await faulty.publishFrame(at);
    };
    await report2s();
    await report2s();
    await expect.poll(async () => (await latest())?.progress?.done).toBe(1);
    // PV input overvoltage (a fault): 59.S2, the item it reaches next, fails.
    await faulty.injectFault(1101, at + 500);
    await report2s();
    await expect.poll(async () => (await latest())?.state, { timeout: 5000 }).toBe(2);
    const failed = await latest();
    expect(failed?.items.map((i) => i.outcome)).toEqual(["passed", "passed", "failed", ...Array(5).fill("notRun")]);
    expect(failed?.items[2]?.actualTimeMs).toBeGreaterThan(failed?.items[2]?.setTimeMs ?? 0);
    // Stored with the record: later readings change nothing.
    await report2s();
    expect((await latest())?.items.map((i) => i.outcome)).toEqual(failed?.items.map((i) => i.outcome));
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
      const ended = await latest();
      expect(ended?.finishedAt).not.toBeNull();
      // The model reports no item: the check as a whole, with where and when its protection tripped.
      expect(ended?.items).toEqual([
        expect.objectContaining({
          item: 0,
          outcome: fault === null ? "passed" : "failed",
          actualThreshold: 253.2,
          actualTimeMs: 212,
        }),
      ]);
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
