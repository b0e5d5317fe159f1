import { baselineValues, blocksFromValues, encodeFrame, TELEMETRY_REGISTERS, telemetryLayout } from "@ess/contracts";
import type { VirtualDevice } from "@ess/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localDay } from "../../src/modules/telemetry/local-day.ts";
import type { Runtime } from "../../src/runtime.ts";
import { registerDevice, testBrokers, uniqueSerial } from "../helpers/devices.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { clearRetained, manualDevice, metric, rawDevice } from "../helpers/sim.ts";
import { signIn } from "../helpers/test-app.ts";

const MINUTE = 60_000;

describe.each(testBrokers())("telemetry through the $name", ({ env }) => {
  let runtime: Runtime;
  let token: string;
  const devices: VirtualDevice[] = [];
  const serials: string[] = [];

  const get = async (url: string) => {
    const response = await runtime.app.inject({
      method: "GET",
      url,
      headers: { authorization: `Bearer ${token}`, "accept-language": "en-US" },
    });
    return { status: response.statusCode, body: response.json() as { code: number; msg: string; data: never } };
  };
  const historyCount = async (deviceId: number) =>
    (await runtime.db.query<{ n: number }>("SELECT count(*)::int AS n FROM telemetry_history WHERE device_id = $1", [deviceId]))
      .rows[0]?.n;
  const register = async (prefix: string, phaseType: 1 | 2, timeZone: string) => {
    const d = await registerDevice(runtime.db, { sn: uniqueSerial(prefix), phaseType, timeZone });
    serials.push(d.sn);
    return d;
  };

  beforeAll(async () => {
    runtime = await startTestRuntime(env);
    token = await signIn(runtime.app);
  });
  afterAll(async () => {
    await Promise.all(devices.map((d) => d.stop()));
    await clearRetained(runtime, serials);
    await runtime.close();
  });

  it("stores what simulated devices report: latest state, history and daily energy in their time zone", async () => {
    const single = await register("SP", 1, "Europe/Rome");
    const three = await register("TP", 2, "Australia/Sydney");
    const sim = {
      single: await manualDevice(runtime, single, "single", "rome"),
      three: await manualDevice(runtime, three, "three", "sydney"),
    };
    devices.push(sim.single, sim.three);
    const t0 = Date.now() - 3 * 60 * MINUTE;
    const expected = { single: new Map<string, number>(), three: new Map<string, number>() };
    for (let k = 0; k < 4; k++) {
      for (const [name, device, tz] of [
        ["single", sim.single, "Europe/Rome"],
        ["three", sim.three, "Australia/Sydney"],
      ] as const) {
        await device.publishFrame(t0 + k * 20 * MINUTE);
        // The device's own daily PV counter at its last reading of each local day is that day's energy.
        expected[name].set(localDay(t0 + k * 20 * MINUTE, tz), Math.round(device.brain.plant.state.today.pv * 10) / 10);
      }
    }
    await expect.poll(() => historyCount(single.id), { timeout: 5000 }).toBe(4);
    await expect.poll(() => historyCount(three.id), { timeout: 5000 }).toBe(4);

    const live = await get(`/admin/device/telemetry/latest?deviceId=${three.id}`);
    expect(live.status).toBe(200);
    const latest = (
      live.body.data as { latest: { ts: number; quantities: Record<string, number>; values: Record<string, number> } }
    ).latest;
    expect(latest.ts).toBe(t0 + 60 * MINUTE);
    const state = sim.three.brain.plant.state;
    expect(latest.quantities.battery_soc).toBe(Math.round(state.soc));
    expect(latest.quantities.load_power).toBe(state.loadW);
    expect(latest.quantities.grid_power).toBe(state.gridW);
    expect(latest.values.TP_0X04_1074).toBe(Math.round(state.soc));
    expect(latest.values.TP_0X04_32780_32787).toBe("H3-12K");
    // Reactive power as reported; the simulated load's var comes from the inverter and the grid.
    expect(latest.quantities.grid_reactive_power).toBe(latest.values.TP_0X04_1113_1114);
    expect(latest.quantities.inverter_reactive_power).toBe(latest.values.TP_0X04_1172_1173);
    expect((latest.quantities.grid_reactive_power ?? 0) + (latest.quantities.inverter_reactive_power ?? 0)).toBeCloseTo(
      state.loadW * 0.203,
      -1,
    );
    // Online within a second of the first frame (last-seen times are written once a second).
    await expect
      .poll(
        async () =>
          ((await get(`/admin/device/telemetry/latest?deviceId=${single.id}`)).body.data as { onlineStatus: number })
            .onlineStatus,
      )
      .toBe(1);
    const singleLive = await get(`/admin/device/telemetry/latest?deviceId=${single.id}`);
    const singleLatest = (
      singleLive.body.data as { latest: { quantities: Record<string, number>; values: Record<string, number> } }
    ).latest;
    expect(singleLatest.values.batteryTotalSoc).toBe(Math.round(sim.single.brain.plant.state.soc));
    expect(singleLatest.quantities.grid_reactive_power).toBe(singleLatest.values.reactivePowerOfThePowerGrid);
    const { invertedReactivePowerA: a, invertedReactivePowerB: b, invertedReactivePowerC: c } = singleLatest.values;
    expect(a).toBeGreaterThanOrEqual(0);
    expect(singleLatest.quantities.inverter_reactive_power).toBe((a ?? 0) + (b ?? 0) + (c ?? 0));

    // The daily energy takes in stored readings on its own interval; take them in now.
    await runtime.telemetry.rollup.flush();
    for (const [name, device] of [
      ["single", single],
      ["three", three],
    ] as const) {
      const days = [...expected[name].keys()].sort();
      const energy = await get(
        `/admin/lsydeviceelectricitydata/list?deviceId=${device.id}&type=0&startDate=${days[0]}&endDate=${days.at(-1)}`,
      );
      const records = (energy.body.data as { records: { period: string; pv: number }[] }).records;
      expect(records.map((r) => r.period)).toEqual(days);
      for (const r of records) expect(r.pv, `${name} ${r.period}`).toBeCloseTo(expected[name].get(r.period) as number, 1);
    }
    const curve = await get(
      `/admin/lsydevicepowerdata/curve?deviceId=${three.id}&date=${localDay(t0 + 60 * MINUTE, "Australia/Sydney")}`,
    );
    expect((curve.body.data as { points: unknown[] }).points.length).toBeGreaterThan(0);
  });

  it("flags values outside their range, drops undecodable frames and stores a repeated frame once", async () => {
    const device = await register("BAD", 2, "UTC");
    const client = await rawDevice(runtime, device);
    try {
      const base = baselineValues(TELEMETRY_REGISTERS.three);
      const frame = (ts: number, soc: number) =>
        encodeFrame(
          { kind: "telemetry", ts, seq: 1, requestId: 0, page: 0, flags: 0 },
          blocksFromValues(telemetryLayout("three"), { ...base, TP_0X04_1074: soc, TP_0X04_1073: 1500 }),
        );
      const invalidBefore = await metric(runtime, "ess_ingest_invalid_values_total");
      const undecodableBefore = await metric(runtime, "ess_ingest_frames_total", '{outcome="undecodable"}');
      const t = Date.now() - 10 * MINUTE;
      await client.publishAsync(`ess/v1/${device.sn}/telemetry`, frame(t, 150), { qos: 1 });
      await client.publishAsync(`ess/v1/${device.sn}/telemetry`, Buffer.from("not a frame"), { qos: 1 });
      const good = frame(t + MINUTE, 55);
      await client.publishAsync(`ess/v1/${device.sn}/telemetry`, good, { qos: 1 });
      await client.publishAsync(`ess/v1/${device.sn}/telemetry`, good, { qos: 1 });
      await expect.poll(() => historyCount(device.id), { timeout: 5000 }).toBe(2);
      expect(await metric(runtime, "ess_ingest_invalid_values_total")).toBe(invalidBefore + 1);
      expect(await metric(runtime, "ess_ingest_frames_total", '{outcome="undecodable"}')).toBe(undecodableBefore + 1);
      expect(client.connected).toBe(true);

      const { rows } = await runtime.db.query<{ battery_soc: number | null; battery_power: number; invalid: string[] | null }>(
        "SELECT battery_soc, battery_power, invalid FROM telemetry_history WHERE device_id = $1 ORDER BY ts",
        [device.id],
      );
      expect(rows).toEqual([
        { battery_soc: null, battery_power: 1500, invalid: ["TP_0X04_1074"] },
        { battery_soc: 55, battery_power: 1500, invalid: null },
      ]);
    } finally {
      await client.endAsync();
    }
  });
});
