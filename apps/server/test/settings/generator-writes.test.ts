import type { VirtualDevice } from "@ess/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { apiCaller } from "../helpers/api-caller.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { manualDevice } from "../helpers/sim.ts";
import { signIn } from "../helpers/test-app.ts";

type Rec = { id: number; state: string; refusalText: string | null; changes: { key: string; new: unknown }[] };

/**
 * The generator page reaches the device: saved settings are written to its generator registers as
 * one change record that the simulated device applies and acknowledges; switching the generator on
 * is refused while the device's newest reading says the grid is connected.
 */
describe("generator settings written to the device", () => {
  let runtime: Runtime;
  let token: string;
  const sims: VirtualDevice[] = [];
  const call = apiCaller(
    () => runtime.app,
    () => token,
  );
  const page = {
    on: false,
    ratedPowerKw: 20,
    availablePct: 80,
    controlMode: "soc",
    socLower: 25,
    socUpper: 90,
    slots: [{ start: "18:00", end: "22:30" }],
    outputMode: 1,
    chargePowerKw: 5,
  };
  const connected = async (prefix: string, product: "single" | "three") => {
    const d = await registerDevice(runtime.db, { sn: uniqueSerial(prefix), phaseType: product === "single" ? 1 : 2 });
    const sim = await manualDevice(runtime, d, product, "rome");
    sims.push(sim);
    await sim.publishFrame();
    const online = async () =>
      (await runtime.db.query<{ s: number }>("SELECT online_status AS s FROM device WHERE id = $1", [d.id])).rows[0]?.s;
    await expect.poll(online, { timeout: 10_000 }).toBe(1);
    return { ...d, sim };
  };
  const records = async (deviceId: number) =>
    (await call<{ records: Rec[] }>("GET", `/admin/param/set/records?deviceId=${deviceId}`)).body.data.records;

  beforeAll(async () => {
    runtime = await startTestRuntime({ ESS_REPEAT_GUARD_MS: "0" });
    token = await signIn(runtime.app);
  });
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.stop()));
    await runtime.close();
  });

  it("writes the page to a single-phase device's generator registers and records it acknowledged", async () => {
    const d = await connected("GWS", "single");
    const saved = await call<{ write: Rec }>("POST", "/admin/generator/operate", { deviceId: d.id, ...page });
    expect(saved.status).toBe(200);
    expect(saved.body.data.write.state).toBe("acknowledged");
    expect(d.sim.brain.settings).toMatchObject({
      PROTOCOL_ADDR_409: 0,
      HM_0X03_437: 0,
      PROTOCOL_ADDR_415: 20,
      HM_0X03_438: 80,
      PROTOCOL_ADDR_411: 25,
      PROTOCOL_ADDR_413: 90,
      HM_0X03_480: 1,
      HM_0X03_481: 18,
      HM_0X03_482: 0,
      HM_0X03_483: 22,
      HM_0X03_484: 30,
      PROTOCOL_ADDR_416: 1,
      PROTOCOL_ADDR_417: 1,
      PROTOCOL_ADDR_419: 25,
    });
    const [latest] = await records(d.id);
    expect(latest).toMatchObject({ id: saved.body.data.write.id, state: "acknowledged" });
    expect(latest?.changes).toContainEqual({ key: "PROTOCOL_ADDR_415", old: null, new: 20 });
  });

  it("refuses switching on while the grid is connected, and takes it once the device is off the grid", async () => {
    const d = await connected("GWG", "single");
    // The running simulated device is grid-tied (run state 2, 5, 6 or 7) in its newest reading.
    expect(
      (await call<{ gridConnected: boolean }>("GET", `/admin/generator/info?deviceId=${d.id}`)).body.data.gridConnected,
    ).toBe(true);
    const before = { ...d.sim.brain.settings };
    const refused = await call<{ fields: { field: string; message: string }[] }>("POST", "/admin/generator/operate", {
      deviceId: d.id,
      ...page,
      controlMode: "manual",
      on: true,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.data.fields).toEqual([
      { field: "on", message: "The grid is connected, so the generator cannot be switched on" },
    ]);
    expect(await records(d.id)).toEqual([]);
    expect(d.sim.brain.settings).toEqual(before);
    const zh = await call<{ fields: { message: string }[] }>(
      "POST",
      "/admin/generator/operate",
      { deviceId: d.id, ...page, on: true },
      { language: "zh-CN" },
    );
    expect(zh.body.data.fields[0]?.message).toBe("电网已连接，无法开启发电机");

    // Switched off (standby, run state 8): the generator may be forced on.
    expect((await call<Rec>("POST", "/admin/param/set/command", { deviceId: d.id, command: 1 })).body.data.state).toBe(
      "acknowledged",
    );
    await d.sim.publishFrame();
    await expect
      .poll(
        async () =>
          (await call<{ gridConnected: boolean }>("GET", `/admin/generator/info?deviceId=${d.id}`)).body.data.gridConnected,
      )
      .toBe(false);
    const on = await call<{ on: boolean; write: Rec }>("POST", "/admin/generator/operate", {
      deviceId: d.id,
      ...page,
      controlMode: "manual",
      on: true,
    });
    expect(on.body.data).toMatchObject({ on: true, write: { state: "acknowledged" } });
    expect(d.sim.brain.settings).toMatchObject({ PROTOCOL_ADDR_409: 1, HM_0X03_437: 1 });
  });

  it("sets a three-phase device's generator port to the generator", async () => {
    const d = await connected("GWT", "three");
    const saved = await call<{ write: Rec }>("POST", "/admin/generator/operate", { deviceId: d.id, ...page });
    expect(saved.body.data.write).toMatchObject({ state: "acknowledged", changes: [{ key: "TP_0X03_1101", new: 1 }] });
    expect(d.sim.brain.settings.TP_0X03_1101).toBe(1);
  });
});
