import type { AlarmRecord, Page, ReminderMessage } from "@ess/contracts";
import type { VirtualDevice } from "@ess/simulator";
import { Client } from "@stomp/stompjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueDeviceSecret } from "../../src/mqtt/device-credentials.ts";
import type { Runtime } from "../../src/runtime.ts";
import { buildWorld, type World } from "../helpers/channel-world.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { manualDevice } from "../helpers/sim.ts";

let runtime: Runtime;
let world: World;
const devices = new Map<string, VirtualDevice>();
let clock = Date.now() - 3 * 3_600_000;

beforeAll(async () => {
  runtime = await startTestRuntime({ ESS_ALARM_CLEAR_HOLD_S: "0", ESS_ALARM_STORM_DEVICES: "4" });
  world = await buildWorld(runtime.app, runtime.db);
  for (const key of ["dev-1a", "dev-1b", "dev-1shown", "dev-2a", "dev-2x"]) {
    const id = world.devices.get(key)?.id as number;
    await runtime.db.query("UPDATE device SET phase_type = 2, time_zone = 'Europe/Rome' WHERE id = $1", [id]);
    devices.set(key, await manualDevice(runtime, { sn: key, secret: await issueDeviceSecret(runtime.db, id) }, "three", "rome"));
  }
});
afterAll(async () => {
  for (const d of devices.values()) await d.stop();
  await runtime.close();
});

const dev = (key: string) => devices.get(key) as VirtualDevice;
const idOf = (key: string) => world.devices.get(key)?.id as number;

async function inject(keys: string[], code: number) {
  clock += 10_000;
  for (const k of keys) await dev(k).injectFault(code, clock);
  for (const k of keys) await dev(k).publishFrame(clock);
  await runtime.faults.detector.settled();
  await runtime.faults.notifier.settled();
}
async function clear(keys: string[], code: number) {
  clock += 10_000;
  for (const k of keys) await dev(k).clearFault(code, clock);
  for (const k of keys) await dev(k).publishFrame(clock);
  await runtime.faults.detector.settled();
}

async function get(userKey: string, url: string) {
  return runtime.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${await world.token(userKey)}` } });
}

/** A console's reminder subscription, as the web opens it. */
async function reminders(userKey: string) {
  const user = world.users.get(userKey);
  const received: ReminderMessage[] = [];
  const client = new Client({
    brokerURL: `${runtime.url.replace(/^http/, "ws")}act/ws`,
    connectHeaders: { Authorization: `Bearer ${await world.token(userKey)}` },
    reconnectDelay: 0,
  });
  await new Promise<void>((resolve) => {
    client.onConnect = () => resolve();
    client.activate();
  });
  const destination = `/user/1/${user?.id}/reminders`;
  client.subscribe(destination, (m) => received.push(JSON.parse(m.body) as ReminderMessage));
  await expect.poll(() => runtime.realtime.subscriberCount(destination)).toBe(1);
  return { received, close: () => client.deactivate() };
}

describe("alarms through the data scope", () => {
  it("an installer sees and is notified of only its devices' alarms", async () => {
    const installer = await reminders("acc-I1a");
    const other = await reminders("acc-I2a");
    try {
      await inject(["dev-1a", "dev-2a"], 2001);
      // (Devices coming on line as the test starts may add on-line reminders: only alarms count here.)
      const alarmsOf = (r: { received: ReminderMessage[] }) => r.received.filter((m) => m.notice?.kind === "alarm");
      await expect.poll(() => alarmsOf(installer).length).toBeGreaterThan(0);
      await expect.poll(() => alarmsOf(other).length).toBeGreaterThan(0);
      expect(alarmsOf(installer).map((r) => [r.notice?.sn, r.notice?.code])).toEqual([["dev-1a", 2001]]);
      expect(alarmsOf(installer)[0]?.notice?.info?.["en-US"]).toBe("Cell overvoltage warning");
      expect(alarmsOf(other).map((r) => r.notice?.sn)).toEqual(["dev-2a"]);
      // Not even on/off-line events of another installer's devices reach it.
      expect(installer.received.every((r) => r.notice?.sn === "dev-1a")).toBe(true);

      const mine: Page<AlarmRecord> = (await get("acc-I1a", "/admin/lsydevicealarm/page?open=true")).json().data;
      expect(mine.records.map((a) => a.sn)).toEqual(["dev-1a"]);
      // Another installer's device does not exist for this one: by id, in export, in status labels.
      expect((await get("acc-I1a", `/admin/lsydevicealarm/page?deviceId=${idOf("dev-2a")}`)).statusCode).toBe(404);
      expect((await get("acc-I1a", `/admin/lsydevicealarm/status?deviceId=${idOf("dev-2a")}`)).statusCode).toBe(404);
      const csv = (await get("acc-I1a", "/admin/lsydevicealarm/export")).body;
      expect(csv).toContain("dev-1a");
      expect(csv).not.toContain("dev-2a");
      // The administrator sees both; the owner of dev-1a sees its own.
      const all: Page<AlarmRecord> = (await get("admin", "/admin/lsydevicealarm/page?open=true")).json().data;
      expect(all.records.map((a) => a.sn).sort()).toEqual(["dev-1a", "dev-2a"]);
      const owner: Page<AlarmRecord> = (await get("u1a", "/admin/lsydevicealarm/page?open=true")).json().data;
      expect(owner.records.map((a) => a.sn)).toEqual(["dev-1a"]);
    } finally {
      await installer.close();
      await other.close();
      await clear(["dev-1a", "dev-2a"], 2001);
    }
  });

  it("sends only the levels a user chose, and only codes the alarm control shows", async () => {
    const token = await world.token("acc-I1a");
    const save = await runtime.app.inject({
      method: "POST",
      url: "/admin/alarm/preference",
      payload: { levels: [3], onlineEvents: false },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(save.json().data).toEqual({ levels: [3], onlineEvents: false });
    const admin = await world.token("admin");
    const control = await runtime.app.inject({
      method: "POST",
      url: "/admin/lsyalarmcontrol/save",
      payload: { code: 3001, name: "Pre-charge", description: "Not pushed", display: false, sort: 1 },
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(control.statusCode, control.body).toBe(200);
    const installer = await reminders("acc-I1a");
    try {
      await inject(["dev-1a"], 2004); // level 1: not chosen
      await inject(["dev-1a"], 3001); // level 3 but hidden by the alarm control
      await inject(["dev-1a"], 2102); // level 3, shown
      await expect.poll(() => installer.received.length).toBe(1);
      expect(installer.received[0]?.notice?.code).toBe(2102);
      // The hidden code is not in the lists either.
      const open: Page<AlarmRecord> = (await get("acc-I1a", "/admin/lsydevicealarm/page?open=true")).json().data;
      expect(open.records.map((a) => a.code).sort()).toEqual([2004, 2102]);
    } finally {
      await installer.close();
      await clear(["dev-1a"], 2004);
      await clear(["dev-1a"], 3001);
      await clear(["dev-1a"], 2102);
    }
  });

  it("tells the users in scope when a device goes off and on line", async () => {
    const owner = await reminders("u1a");
    const stranger = await reminders("u2a");
    try {
      const device = dev("dev-1a");
      await device.restart(300);
      await expect.poll(() => owner.received.map((r) => r.notice?.kind), { timeout: 15_000 }).toEqual(["offline", "online"]);
      expect(owner.received.map((r) => r.notice?.sn)).toEqual(["dev-1a", "dev-1a"]);
      expect(stranger.received).toEqual([]);
    } finally {
      await owner.close();
      await stranger.close();
    }
  });

  it("summarises a storm: many devices raising one code make one reminder", async () => {
    const admin = await reminders("admin");
    try {
      await inject(["dev-1a", "dev-1b", "dev-1shown", "dev-2a", "dev-2x"], 1302);
      await expect.poll(() => admin.received.some((r) => r.notice?.kind === "storm")).toBe(true);
      const about = admin.received.filter((r) => r.notice?.code === 1302);
      // Alarms notified before the storm threshold was reached go one by one; then one summary.
      const storms = about.filter((r) => r.notice?.kind === "storm");
      expect(storms).toHaveLength(1);
      expect(storms[0]?.notice?.devices).toBeGreaterThanOrEqual(4);
      expect(about.length).toBeLessThan(5);
    } finally {
      await admin.close();
    }
  });
});
