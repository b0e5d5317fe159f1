import { type DeviceWriteMessage, deviceWritesDestination } from "@ess/contracts";
import type { VirtualDevice } from "@ess/simulator";
import { Client } from "@stomp/stompjs";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Runtime } from "../../src/runtime.ts";
import { apiCaller } from "../helpers/api-caller.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { manualDevice, rawDevice } from "../helpers/sim.ts";
import { signIn } from "../helpers/test-app.ts";

type Rec = {
  id: number;
  state: string;
  refusal: string | null;
  refusalText: string | null;
  changes: { key: string; old: unknown; new: unknown }[];
};

/**
 * Settings and commands against simulated devices (Done-when 2): applied in standby and
 * acknowledged, refused while running, queued while offline and applied on return, a silent
 * device ends timed out, and a bulk operation over 200 devices reports every device's outcome.
 */
describe("device writes against the simulator", () => {
  let runtime: Runtime;
  let token: string;
  const sims: VirtualDevice[] = [];

  const call = apiCaller(
    () => runtime.app,
    () => token,
  );
  const online = (id: number) => async () =>
    (await runtime.db.query<{ s: number }>("SELECT online_status AS s FROM device WHERE id = $1", [id])).rows[0]?.s;
  const writesOf = async (deviceId: number) =>
    (await runtime.db.query<{ n: number }>("SELECT count(*)::int AS n FROM device_write WHERE device_id = $1", [deviceId]))
      .rows[0]?.n;
  const connected = async (prefix: string) => {
    const d = await registerDevice(runtime.db, { sn: uniqueSerial(prefix), phaseType: 2, timeZone: "Europe/Rome" });
    const sim = await manualDevice(runtime, d, "three", "rome");
    sims.push(sim);
    await sim.publishFrame();
    await expect.poll(online(d.id), { timeout: 10_000 }).toBe(1);
    return { ...d, sim };
  };

  beforeAll(async () => {
    // The same change is sent twice on purpose (refused, then in standby): no repeat guard here.
    runtime = await startTestRuntime({ ESS_PAGE_READ_TIMEOUT_MS: "1500", ESS_BULK_CONCURRENCY: "25", ESS_REPEAT_GUARD_MS: "0" });
    token = await signIn(runtime.app);
  });
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.stop()));
    await runtime.close();
  });

  it("applies a standby-only setting in standby and records it acknowledged; refuses it while running, saying why", async () => {
    const d = await connected("STB");
    const before = d.sim.brain.settings.TP_0X03_1047;
    const target = before === 1 ? 0 : 1;

    // The newest reading says the device runs: refused before anything is recorded or sent.
    const running = await call<null>("POST", "/admin/param/set/update", { deviceId: d.id, values: { TP_0X03_1047: target } });
    expect(running.status).toBe(400);
    expect(running.body.msg).toMatch(
      /^Battery Type Setting can be changed only in standby or when switched off; the device is now in “(Grid operation|Battery grid connection|PV grid connection|PV battery grid connection)”/,
    );
    const zhRunning = await call<null>(
      "POST",
      "/admin/param/set/update",
      { deviceId: d.id, values: { TP_0X03_1047: target } },
      {
        language: "zh-CN",
      },
    );
    expect(zhRunning.body.msg).toContain("只能在待机或关机状态下修改");
    expect(await writesOf(d.id)).toBe(0);
    expect(d.sim.brain.settings.TP_0X03_1047).toBe(before);

    const off = await call<Rec>("POST", "/admin/param/set/command", { deviceId: d.id, command: 1 });
    expect(off.body.data.state).toBe("acknowledged");
    await d.sim.publishFrame();
    const standby = await call<Rec>("POST", "/admin/param/set/update", { deviceId: d.id, values: { TP_0X03_1047: target } });
    expect(standby.body.data).toMatchObject({
      state: "acknowledged",
      changes: [{ key: "TP_0X03_1047", old: before, new: target }],
    });
    expect(d.sim.brain.settings.TP_0X03_1047).toBe(target);

    // Switched on at the device after its last reading: the device itself refuses, and the record says why.
    d.sim.brain.condition.running = true;
    const refused = await call<Rec>("POST", "/admin/param/set/update", { deviceId: d.id, values: { TP_0X03_1047: before } });
    expect(refused.status).toBe(200);
    expect(refused.body.data).toMatchObject({ state: "refused", refusal: "needsStandby" });
    expect(refused.body.data.refusalText).toMatch(/standby/);
    expect(d.sim.brain.settings.TP_0X03_1047).toBe(target);

    const records = await call<{ records: Rec[]; total: number }>("GET", `/admin/param/set/records?deviceId=${d.id}`);
    expect(records.body.data.records.map((r) => r.state)).toEqual(["refused", "acknowledged", "acknowledged"]);
    const zh = await call<{ records: Rec[] }>("GET", `/admin/param/set/records?deviceId=${d.id}&kind=setting`, undefined, {
      language: "zh-CN",
    });
    expect(zh.body.data.records[0]?.refusalText).toContain("待机");
  });

  it("refuses a standby-only setting in bulk, unsent, to the devices whose reading says they run", async () => {
    const running = await connected("BSR");
    const standby = await connected("BSS");
    await call<Rec>("POST", "/admin/param/set/command", { deviceId: standby.id, command: 1 });
    await standby.sim.publishFrame();
    const before = running.sim.brain.settings.TP_0X03_1047;
    const target = before === 1 ? 0 : 1;
    const started = await call<{ bulkId: number }>("POST", "/admin/param/set/bulk", {
      filter: { deviceIds: [running.id, standby.id] },
      values: { TP_0X03_1047: target },
    });
    type Outcome = { records: (Rec & { deviceId: number; sentAt: number | null })[]; counts: Record<string, number> };
    const outcome = async () =>
      (await call<Outcome>("GET", `/admin/param/set/bulk/outcome?bulkId=${started.body.data.bulkId}`)).body.data;
    await expect.poll(async () => (await outcome()).counts, { timeout: 10_000 }).toEqual({ acknowledged: 1, refused: 1 });
    const refused = (await outcome()).records.find((r) => r.deviceId === running.id);
    expect(refused).toMatchObject({ state: "refused", refusal: "needsStandby", sentAt: null });
    expect(refused?.refusalText).toMatch(/standby/);
    expect(running.sim.brain.settings.TP_0X03_1047).toBe(before);
    expect(standby.sim.brain.settings.TP_0X03_1047).toBe(target);
  });

  it("says Device is Offline unless asked to queue; a queued change is applied when the device returns", async () => {
    const d = await registerDevice(runtime.db, { sn: uniqueSerial("QUE"), phaseType: 2, timeZone: "Europe/Rome" });
    const refused = await call<null>("POST", "/admin/param/set/update", { deviceId: d.id, values: { TP_0X03_1054: 35 } });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe("Device is Offline");
    expect(await writesOf(d.id)).toBe(0);

    const queued = await call<Rec>("POST", "/admin/param/set/update", {
      deviceId: d.id,
      values: { TP_0X03_1054: 35 },
      queueIfOffline: true,
    });
    expect(queued.body.data.state).toBe("queued");

    // The record's states arrive live on the gateway as the device returns and answers.
    const pushes: DeviceWriteMessage[] = [];
    const stomp = new Client({
      brokerURL: `${runtime.url.replace(/^http/, "ws")}act/ws`,
      connectHeaders: { Authorization: `Bearer ${token}` },
      reconnectDelay: 0,
    });
    await new Promise<void>((resolve) => {
      stomp.onConnect = () => resolve();
      stomp.activate();
    });
    stomp.subscribe(deviceWritesDestination(d.id), (m) => pushes.push(JSON.parse(m.body) as DeviceWriteMessage));
    await expect.poll(() => runtime.realtime.subscriberCount(deviceWritesDestination(d.id))).toBe(1);

    const sim = await manualDevice(runtime, d, "three", "rome");
    sims.push(sim);
    await sim.publishFrame();
    const state = async () =>
      (await call<{ records: Rec[] }>("GET", `/admin/param/set/records?deviceId=${d.id}`)).body.data.records[0]?.state;
    await expect.poll(state, { timeout: 10_000 }).toBe("acknowledged");
    expect(sim.brain.settings.TP_0X03_1054).toBe(35);
    await expect
      .poll(() => pushes.map((p) => [p.id, p.state]))
      .toEqual([
        [queued.body.data.id, "sent"],
        [queued.body.data.id, "acknowledged"],
      ]);
    await stomp.deactivate();
  });

  it("ends a write the device does not answer as timed out, never as done", async () => {
    const d = await registerDevice(runtime.db, { sn: uniqueSerial("MUTE"), phaseType: 2 });
    const client = await rawDevice(runtime, d);
    try {
      await client.publishAsync(`ess/v1/${d.sn}/status`, "online", { qos: 1 });
      await expect.poll(online(d.id), { timeout: 5000 }).toBe(1);
      const answer = await call<Rec>("POST", "/admin/param/set/update", { deviceId: d.id, values: { TP_0X03_55: 10 } });
      expect(answer.body.data).toMatchObject({ state: "timed_out", refusal: "timeout" });
      // A late acknowledgement does not turn it into success.
      await client.publishAsync(`ess/v1/${d.sn}/ack`, JSON.stringify({ v: 1, id: 1, ok: true }), { qos: 1 });
      const rows = await runtime.db.query<{ state: string }>("SELECT state FROM device_write WHERE device_id = $1", [d.id]);
      expect(rows.rows.map((r) => r.state)).toEqual(["timed_out"]);
    } finally {
      await client.endAsync();
    }
  });

  it("refuses every generated break of the battery rules with its message and changes nothing (through HTTP)", async () => {
    const d = await connected("RUL");
    const tenths = fc.integer({ min: 0, max: 9999 }).map((t) => t / 10);
    await fc.assert(
      fc.asyncProperty(tenths, tenths, async (dod, eod) => {
        fc.pre(Math.round(dod * 10) < Math.round(eod * 10) + 10);
        const count = await writesOf(d.id);
        const settings = { ...d.sim.brain.settings };
        const answer = await call<{ fields: { field: string; message: string }[] }>("POST", "/admin/param/set/update", {
          deviceId: d.id,
          values: { TP_0X03_1053: dod, TP_0X03_1052: eod },
        });
        expect(answer.status).toBe(400);
        expect(answer.body.data.fields).toEqual([{ field: "TP_0X03_1053", message: "DOD must be at least 1 V above EOD" }]);
        expect(await writesOf(d.id)).toBe(count);
        expect(d.sim.brain.settings).toEqual(settings);
      }),
      { numRuns: 25 },
    );
    // Per-phase settings need three-phase four-wire wiring (set in standby).
    await call<Rec>("POST", "/admin/param/set/command", { deviceId: d.id, command: 1 });
    await d.sim.publishFrame();
    const threeWire = await call<Rec>("POST", "/admin/param/set/update", { deviceId: d.id, values: { TP_0X03_1100: 0 } });
    expect(threeWire.body.data.state).toBe("acknowledged");
    const perPhase = await call<{ fields: { field: string; message: string }[] }>("POST", "/admin/param/set/update", {
      deviceId: d.id,
      values: { TP_0X03_1098: 20 },
    });
    expect(perPhase.body.data.fields).toEqual([
      { field: "TP_0X03_1098", message: "This setting is only valid in three-phase four-wire mode" },
    ]);
  });

  it("sends one command to 200 devices, paced, and reports each device's outcome", async () => {
    const devices = [];
    for (let i = 0; i < 200; i++) devices.push(await registerDevice(runtime.db, { sn: uniqueSerial(`BLK${i}`), phaseType: 2 }));
    // Half of them online (simulated), half offline.
    const live = devices.slice(0, 100);
    for (const d of live) {
      const sim = await manualDevice(runtime, d, "three", "rome");
      sims.push(sim);
      await sim.publishFrame();
    }
    const ids = devices.map((d) => d.id);
    const onlineCount = async () =>
      (
        await runtime.db.query<{ n: number }>("SELECT count(*)::int AS n FROM device WHERE id = ANY($1) AND online_status = 1", [
          ids,
        ])
      ).rows[0]?.n;
    await expect.poll(onlineCount, { timeout: 20_000 }).toBe(100);

    const started = await call<{ bulkId: number; total: number }>("POST", "/admin/param/set/bulk", {
      filter: { deviceIds: ids },
      command: 4,
    });
    expect(started.body.data.total).toBe(200);
    const outcome = async () =>
      (
        await call<{ counts: Record<string, number> }>(
          "GET",
          `/admin/param/set/bulk/outcome?bulkId=${started.body.data.bulkId}&size=500`,
        )
      ).body.data.counts;
    await expect.poll(outcome, { timeout: 30_000 }).toEqual({ acknowledged: 100, refused: 100 });
    const page = await call<{ records: (Rec & { sn: string; deviceId: number })[]; total: number }>(
      "GET",
      `/admin/param/set/bulk/outcome?bulkId=${started.body.data.bulkId}&size=500`,
    );
    expect(page.body.data.total).toBe(200);
    const liveIds = new Set(live.map((d) => d.id));
    for (const r of page.body.data.records) {
      expect(r.state).toBe(liveIds.has(r.deviceId) ? "acknowledged" : "refused");
      if (!liveIds.has(r.deviceId)) expect(r.refusalText).toBe("Device is Offline");
    }
  }, 120_000);
});
