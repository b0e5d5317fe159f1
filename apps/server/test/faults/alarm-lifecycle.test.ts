import type { AlarmRecord, Page } from "@ess/contracts";
import type { VirtualDevice } from "@ess/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.ts";
import { type Runtime, startRuntime } from "../../src/runtime.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { freePort, tempDataDir } from "../helpers/server-process.ts";
import { manualDevice } from "../helpers/sim.ts";
import { signIn } from "../helpers/test-app.ts";
import { freshDatabaseUrl } from "../helpers/test-db.ts";

const STEP = 10_000;
const HOLD_S = 60;

/** The server on a data folder (or database) and ports that survive a restart. */
async function restartableServer() {
  const database = await freshDatabaseUrl();
  const env = {
    PORT: String(await freePort()),
    MQTT_PORT: String(await freePort()),
    HOST: "127.0.0.1",
    DATA_DIR: tempDataDir(),
    LOG_LEVEL: "silent",
    ESS_ADMIN_PASSWORD: "Admin12345",
    NODE_ENV: "test",
    ESS_CAPTCHA: "off",
    ESS_ALARM_CLEAR_HOLD_S: String(HOLD_S),
    ...(database ? { DATABASE_URL: database.url } : {}),
  };
  return { start: () => startRuntime(loadConfig(env)), drop: () => database?.drop() };
}

let server: Awaited<ReturnType<typeof restartableServer>>;
let runtime: Runtime;
let token: string;
let device: VirtualDevice;
let deviceId: number;
let single: VirtualDevice;
let singleId: number;
let clock = Date.now() - 6 * 3_600_000;

beforeAll(async () => {
  server = await restartableServer();
  runtime = await server.start();
  token = await signIn(runtime.app);
  const d = await registerDevice(runtime.db, { sn: uniqueSerial("ALRM"), phaseType: 2, timeZone: "Europe/Rome" });
  deviceId = d.id;
  device = await manualDevice(runtime, d, "three", "rome");
  const s = await registerDevice(runtime.db, { sn: uniqueSerial("ALRS"), phaseType: 1, timeZone: "Europe/Madrid" });
  singleId = s.id;
  single = await manualDevice(runtime, s, "single", "seville");
});
afterAll(async () => {
  await device?.stop();
  await single?.stop();
  await runtime?.close();
  await server?.drop();
});

/** Publishes `n` frames STEP apart on the device's clock; `each(i, at)` runs before each frame. */
async function frames(d: VirtualDevice, n: number, each?: (i: number, at: number) => Promise<void>) {
  for (let i = 0; i < n; i++) {
    clock += STEP;
    await each?.(i, clock);
    await d.publishFrame(clock);
  }
  await runtime.faults.detector.settled();
}

async function alarms(query: Record<string, string | number | boolean>): Promise<Page<AlarmRecord>> {
  const res = await runtime.app.inject({
    method: "GET",
    url: "/admin/lsydevicealarm/page",
    query: Object.fromEntries(Object.entries({ size: 100, ...query }).map(([k, v]) => [k, String(v)])),
    headers: { authorization: `Bearer ${token}`, "accept-language": "en-US" },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

const deviceStatus = async (id: number) =>
  (await runtime.db.query<{ status: number }>("SELECT status FROM device WHERE id = $1", [id])).rows[0]?.status;

describe("alarm life cycle from the simulator's fault injection", () => {
  it("opens one alarm per condition however many frames repeat it, with its causes and remedy", async () => {
    await device.injectFault(2001, clock + 1);
    await frames(device, 30);
    const open = await alarms({ deviceId, open: true });
    expect(open.records.map((a) => a.code)).toEqual([2001]);
    const [a] = open.records as [AlarmRecord];
    expect(a).toMatchObject({ status: "occur", level: 2, systemType: 2, flapCount: 0, clearedAt: null });
    expect(a.info).toBe("Cell overvoltage warning");
    expect(a.causes).toMatch(/balance/);
    expect(a.remedy).toMatch(/charge cut-off/);
    // A warning (level 2) leaves the device's status alone.
    expect(await deviceStatus(deviceId)).toBe(0);
  });

  it("closes the alarm once the condition has stayed clear for the hold time", async () => {
    const clearedAt = clock + 1;
    await device.clearFault(2001, clearedAt);
    await frames(device, 2);
    // Still within the hold: open, nothing new.
    expect((await alarms({ deviceId, open: true })).total).toBe(1);
    await frames(device, HOLD_S / 10 + 1);
    expect((await alarms({ deviceId, open: true })).total).toBe(0);
    const history = await alarms({ deviceId, faultCode: 2001 });
    expect(history.records).toHaveLength(1);
    expect(history.records[0]).toMatchObject({ status: "disappear", clearedAt: new Date(clearedAt).toISOString() });
  });

  it("turns a flapping signal into one alarm with a flap count, not hundreds", async () => {
    await frames(device, 100, async (i, at) => {
      if (i % 2 === 0) await device.injectFault(2004, at - 1);
      else await device.clearFault(2004, at - 1);
    });
    await device.clearFault(2004, clock + 1);
    await frames(device, HOLD_S / 10 + 2);
    const history = await alarms({ deviceId, faultCode: 2004 });
    expect(history.total).toBe(1);
    expect(history.records[0]?.status).toBe("disappear");
    expect(history.records[0]?.flapCount).toBe(49);
    const stored = await runtime.db.query("SELECT id FROM device_alarm WHERE device_id = $1 AND code = 2004", [deviceId]);
    expect(stored.rowCount).toBe(1);
  });

  it("sets device status 3 while an error-level alarm is open (back to 0 when it closes: see the restart test)", async () => {
    await device.injectFault(2102, clock + 1);
    await frames(device, 3);
    expect(await deviceStatus(deviceId)).toBe(3);
    const labels = await runtime.app.inject({
      method: "GET",
      url: `/admin/lsydevicealarm/status?deviceId=${deviceId}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(labels.json().data).toMatchObject({ deviceStatus: 3, openAlarms: 1, dsp: 1, bms: 1, meter: 1 });
  });

  it("reads communication faults from the status flags: DSP error, no BMS, meter abnormal", async () => {
    await device.injectFault(1601, clock + 1);
    await device.injectFault(1602, clock + 1);
    await device.injectFault(1502, clock + 1);
    await frames(device, 2);
    const labels = await runtime.app.inject({
      method: "GET",
      url: `/admin/lsydevicealarm/status?deviceId=${deviceId}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(labels.json().data).toMatchObject({ dsp: 0, bms: 0, meter: 0 });
    for (const code of [1601, 1602, 1502]) await device.clearFault(code, clock + 1);
    await frames(device, HOLD_S / 10 + 2);
    const after = await runtime.app.inject({
      method: "GET",
      url: `/admin/lsydevicealarm/status?deviceId=${deviceId}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(after.json().data).toMatchObject({ dsp: 1, bms: 1, meter: 1, openAlarms: 1 });
  });

  it("detects single-phase faults from their alarm words too", async () => {
    await single.injectFault(1002, clock + 1);
    await frames(single, 5);
    const open = await alarms({ deviceId: singleId, open: true });
    expect(open.records.map((a) => [a.code, a.systemType, a.info])).toEqual([[1002, 1, "Grid overvoltage"]]);
  });

  it("closes the alarm of a device that went quiet once the hold has passed on the server's clock", async () => {
    await single.injectFault(1304, clock + 1);
    await frames(single, 2);
    await single.clearFault(1304, clock + 1);
    await frames(single, 1);
    // The device says nothing more; an hour passes.
    await runtime.db.query("UPDATE device_alarm SET clearing_seen_at = now() - interval '1 hour' WHERE code = 1304");
    expect((await alarms({ deviceId: singleId, faultCode: 1304, open: true })).total).toBe(1);
    await runtime.faults.detector.sweep();
    expect((await alarms({ deviceId: singleId, faultCode: 1304, open: true })).total).toBe(0);
    // And the detector knows it: the fault coming back is a new alarm.
    await single.injectFault(1304, clock + 1);
    await frames(single, 1);
    expect((await alarms({ deviceId: singleId, faultCode: 1304 })).total).toBe(2);
  });

  it("neither duplicates nor loses open alarms across a restart of the server", async () => {
    const before = await alarms({ deviceId, open: true });
    expect(before.records.map((a) => a.code)).toEqual([2102]);
    const openId = before.records[0]?.id;

    await runtime.close();
    runtime = await server.start();
    token = await signIn(runtime.app);
    // Nothing lost: the open alarm is still current before the device reports again.
    expect((await alarms({ deviceId, open: true })).records.map((a) => a.id)).toEqual([openId]);

    // The device reconnects and keeps reporting the same condition: still the one alarm.
    clock += STEP;
    const reconnected = clock;
    await device.publishFrame(reconnected);
    await expect
      .poll(
        async () =>
          (
            await runtime.db.query("SELECT 1 FROM telemetry_history WHERE device_id = $1 AND ts = $2", [
              deviceId,
              new Date(reconnected),
            ])
          ).rowCount,
        { timeout: 20_000 },
      )
      .toBe(1);
    await frames(device, 10);
    const after = await alarms({ deviceId, open: true });
    expect(after.records.map((a) => a.id)).toEqual([openId]);
    expect(await deviceStatus(deviceId)).toBe(3);

    await device.clearFault(2102, clock + 1);
    await frames(device, HOLD_S / 10 + 2);
    expect((await alarms({ deviceId, open: true })).total).toBe(0);
    expect(await deviceStatus(deviceId)).toBe(0);
    const stored = await runtime.db.query("SELECT id FROM device_alarm WHERE device_id = $1 AND code = 2102", [deviceId]);
    expect(stored.rowCount).toBe(1);
  });
});
