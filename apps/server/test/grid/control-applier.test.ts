import type { VirtualDevice } from "@ess/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ControlApplier,
  createControlApplier,
  GRID_AUTHOR,
  readOwnValuesOnReturn,
} from "../../src/modules/grid/control-applier.ts";
import { createDeviceWriter, type DeviceWriter } from "../../src/modules/settings/device-writer.ts";
import { insertWrites } from "../../src/modules/settings/write-records.repository.ts";
import type { Runtime } from "../../src/runtime.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { startTestRuntime } from "../helpers/runtime.ts";
import { manualDevice, rawDevice } from "../helpers/sim.ts";

/**
 * A utility's control turned into settings of real simulated devices over MQTT: the device's
 * settings change and its measured export obeys; the same control again — also from a fresh
 * applier, as after a restart — sends nothing; the end of the control gives the device its own
 * values back; an offline device gets the control when it returns; a refusal is told.
 */
describe("grid controls applied to devices", () => {
  let runtime: Runtime;
  let writer: DeviceWriter;
  let applier: ControlApplier;
  const sims: VirtualDevice[] = [];
  const kw = (value: number) => ({ value, multiplier: 3 });

  const newApplier = () =>
    createControlApplier({
      db: runtime.db,
      writer,
      requests: runtime.telemetry.requests,
      queueTtlMs: 60_000,
      ownValueWaitMs: 3000,
    });
  const writesOf = async (deviceId: number) =>
    (
      await runtime.db.query<{ n: number; by: string[] }>(
        "SELECT count(*)::int AS n, array_agg(DISTINCT created_by_name) AS by FROM device_write WHERE device_id = $1",
        [deviceId],
      )
    ).rows[0];
  const vpp = async (deviceId: number) =>
    (await runtime.db.query<{ v: boolean }>("SELECT vpp_controlled AS v FROM device WHERE id = $1", [deviceId])).rows[0]?.v;
  const online = (id: number) => async () =>
    (await runtime.db.query<{ s: number }>("SELECT online_status AS s FROM device WHERE id = $1", [id])).rows[0]?.s;
  const connected = async (prefix: string, product: "single" | "three") => {
    const d = await registerDevice(runtime.db, {
      sn: uniqueSerial(prefix),
      phaseType: product === "three" ? 2 : 1,
      timeZone: "Europe/Rome",
    });
    const sim = await manualDevice(runtime, d, product, "rome");
    sims.push(sim);
    await sim.publishFrame();
    await expect.poll(online(d.id), { timeout: 10_000 }).toBe(1);
    return { ...d, sim };
  };

  beforeAll(async () => {
    runtime = await startTestRuntime({ ESS_REPEAT_GUARD_MS: "0", ESS_PAGE_READ_TIMEOUT_MS: "1500" });
    writer = createDeviceWriter({
      db: runtime.db,
      requests: runtime.telemetry.requests,
      hub: runtime.realtime,
      events: runtime.telemetry.events,
      log: runtime.app.log,
      options: { queueTtlMs: 60_000, bulkConcurrency: 5, sweepMs: 1000 },
    });
    // As the console's own writer does (app.ts): either may send a returning device's queue.
    writer.beforeFlush(readOwnValuesOnReturn({ db: runtime.db, requests: runtime.telemetry.requests }));
    applier = newApplier();
  });
  afterAll(async () => {
    await Promise.all(sims.map((s) => s.stop()));
    await writer.stop();
    await runtime.close();
  });

  it("three-phase: sets the export limit, sends the same control only once (a restart included), and restores the device's own values", async () => {
    const d = await connected("GCT", "three");
    const own = { ...d.sim.brain.settings };
    expect(own.TP_0X03_1039).toBe(0);

    // 2 kW of a 12 kW inverter: 16 % (rounded down), on every phase of this four-wire device.
    const first = await applier.applyEffectiveControl(d, { opModExpLimW: kw(2) });
    expect(first).toMatchObject({ changed: true, outcome: "acknowledged", notApplicable: [] });
    expect(d.sim.brain.settings).toMatchObject({ TP_0X03_1028: 16, TP_0X03_1098: 16, TP_0X03_1099: 16, TP_0X03_1039: 1 });
    expect(await vpp(d.id)).toBe(true);
    expect(await writesOf(d.id)).toEqual({ n: 1, by: [GRID_AUTHOR] });

    // What the device measures obeys: at noon with a full battery, export stays under 2 kW.
    d.sim.brain.plant.state.soc = 100;
    const noon = Date.parse("2026-06-21T09:30:00Z");
    const exported: number[] = [];
    for (let t = noon; t < noon + 3_600_000; t += 60_000) {
      d.sim.brain.tick(t);
      exported.push(-d.sim.brain.plant.state.gridW);
    }
    expect(Math.max(...exported)).toBeLessThanOrEqual(2000);

    const again = await applier.applyEffectiveControl(d, { opModExpLimW: kw(2) });
    expect(again).toMatchObject({ changed: false, outcome: "acknowledged", writes: [] });
    const afterRestart = await newApplier().applyEffectiveControl(d, { opModExpLimW: { value: 20, multiplier: 2 } });
    expect(afterRestart.changed).toBe(false);
    expect((await writesOf(d.id))?.n).toBe(1);

    // A new limit sends only what changed (the anti-backflow switch is already on).
    const raised = await applier.applyEffectiveControl(d, { opModExpLimW: kw(6) });
    expect(raised.writes[0]?.changes.map((c) => [c.key, c.old, c.new])).toEqual([
      ["TP_0X03_1028", 16, 50],
      ["TP_0X03_1098", 16, 50],
      ["TP_0X03_1099", 16, 50],
    ]);

    const ended = await applier.applyEffectiveControl(d, null);
    expect(ended).toMatchObject({ changed: true, outcome: "acknowledged" });
    for (const key of ["TP_0X03_1028", "TP_0X03_1098", "TP_0X03_1099", "TP_0X03_1039"]) {
      expect(d.sim.brain.settings[key]).toBe(own[key]);
    }
    expect(await vpp(d.id)).toBe(false);
    expect((await applier.applyEffectiveControl(d, null)).changed).toBe(false);
  });

  it("single-phase: limits charging and switches the device off, and on again when the control ends", async () => {
    const d = await connected("GCS", "single");
    const own = { ...d.sim.brain.settings };
    const result = await applier.applyEffectiveControl(d, { opModLoadLimW: kw(1), opModEnergize: false });
    expect(result).toMatchObject({ changed: true, outcome: "acknowledged" });
    expect(result.writes.map((w) => w.kind)).toEqual(["setting", "command"]);
    const voltage = d.sim.brain.plant.batteryVoltage();
    expect(d.sim.brain.settings.batteryChargingCurrent as number).toBeLessThanOrEqual(1000 / voltage);
    expect(d.sim.brain.settings.batteryChargingCurrent as number).toBeGreaterThan(1000 / voltage - 0.2);
    expect(d.sim.brain.condition.running).toBe(false);

    await applier.applyEffectiveControl(d, null);
    expect(d.sim.brain.condition.running).toBe(true);
    expect(d.sim.brain.settings.batteryChargingCurrent).toBe(own.batteryChargingCurrent);
  });

  it("queues the control for an offline device, which gets it on its return", async () => {
    const d = await connected("GCO", "three");
    await d.sim.stop();
    await expect.poll(online(d.id), { timeout: 10_000 }).toBe(0);
    const result = await applier.applyEffectiveControl(d, { opModExpLimW: kw(3) });
    expect(result).toMatchObject({ changed: true, outcome: "queued" });
    expect(await vpp(d.id)).toBe(true);

    const back = await manualDevice(runtime, d, "three", "rome");
    sims.push(back);
    await back.publishFrame();
    await expect.poll(async () => (await applier.controlState(d.id)).outcome, { timeout: 10_000 }).toBe("acknowledged");
    expect(back.brain.settings).toMatchObject({ TP_0X03_1028: 25, TP_0X03_1039: 1 });
  });

  it("records a device that does not answer as timed out, and says what it cannot do before its battery voltage is known", async () => {
    const d = await registerDevice(runtime.db, { sn: uniqueSerial("GCM"), phaseType: 2 });
    const client = await rawDevice(runtime, d);
    try {
      await client.publishAsync(`ess/v1/${d.sn}/status`, "online", { qos: 1 });
      await expect.poll(online(d.id), { timeout: 5000 }).toBe(1);
      const result = await applier.applyEffectiveControl(d, { opModExpLimW: kw(1), opModStorageTargetW: kw(2) });
      // Unanswered, then queued again for when the device is next heard from.
      expect(result).toMatchObject({ changed: true, outcome: "queued" });
      expect(result.writes.map((w) => [w.state, w.refusal])).toEqual([["timed_out", "timeout"]]);
      expect(await applier.controlState(d.id)).toEqual({
        active: true,
        outcome: "queued",
        // No reading yet: the discharge target cannot become a current, the export limit is still sent.
        notApplicable: [{ field: "opModStorageTargetW", reason: "batteryVoltageUnknown" }],
      });
      // The same control again sends nothing more.
      expect(await applier.applyEffectiveControl(d, { opModExpLimW: kw(1), opModStorageTargetW: kw(2) })).toMatchObject({
        changed: false,
        outcome: "queued",
      });
      expect(await writesOf(d.id)).toEqual({ n: 2, by: [GRID_AUTHOR] });
    } finally {
      await client.endAsync();
    }
  });

  it("gets the limit to a device taken for online that was not connected, once it is heard from again", async () => {
    // Its connection ended without a last will (as when the console restarted under it): still "online".
    const d = await registerDevice(runtime.db, { sn: uniqueSerial("GCG"), phaseType: 2 });
    // Never heard from yet: its rating is the registered one.
    await runtime.db.query("UPDATE device SET rated_power = 12 WHERE id = $1", [d.id]);
    const gone = await rawDevice(runtime, d);
    await gone.publishAsync(`ess/v1/${d.sn}/status`, "online", { qos: 1 });
    await expect.poll(online(d.id), { timeout: 5000 }).toBe(1);
    await gone.endAsync();
    const result = await applier.applyEffectiveControl(d, { opModExpLimW: kw(2) });
    expect(result.writes.map((w) => w.state)).toEqual(["timed_out"]);
    expect(result.outcome).toBe("queued");

    const back = await manualDevice(runtime, d, "three", "rome");
    sims.push(back);
    await back.publishFrame();
    await expect.poll(async () => (await applier.controlState(d.id)).outcome, { timeout: 15_000 }).toBe("acknowledged");
    expect(back.brain.settings).toMatchObject({ TP_0X03_1028: 16, TP_0X03_1039: 1 });
    // Its measured export obeys from then on.
    back.brain.plant.state.soc = 100;
    const noon = Date.parse("2026-06-21T09:30:00Z");
    for (let t = noon; t < noon + 1_800_000; t += 60_000) {
      back.brain.tick(t);
      expect(-back.brain.plant.state.gridW).toBeLessThanOrEqual(2000);
    }
  });

  it("reads the device's own values again when it does not answer at first, and gives them back at the end", async () => {
    const d = await registerDevice(runtime.db, { sn: uniqueSerial("GCV"), phaseType: 2 });
    await runtime.db.query("UPDATE device SET rated_power = 12 WHERE id = $1", [d.id]);
    const gone = await rawDevice(runtime, d);
    await gone.publishAsync(`ess/v1/${d.sn}/status`, "online", { qos: 1 });
    await expect.poll(online(d.id), { timeout: 5000 }).toBe(1);
    await gone.endAsync();
    // The device comes back while the control is being applied (its first read goes unanswered).
    const applying = applier.applyEffectiveControl(d, { opModExpLimW: kw(2) });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const back = await manualDevice(runtime, d, "three", "rome");
    sims.push(back);
    const own = { ...back.brain.settings };
    expect(await applying).toMatchObject({ changed: true, outcome: "acknowledged" });
    expect(back.brain.settings).toMatchObject({ TP_0X03_1028: 16, TP_0X03_1039: 1 });

    expect(await applier.applyEffectiveControl(d, null)).toMatchObject({ changed: true, outcome: "acknowledged" });
    expect(back.brain.settings.TP_0X03_1028).toBe(own.TP_0X03_1028);
    expect(back.brain.settings.TP_0X03_1039).toBe(own.TP_0X03_1039);
  });

  /** A device registered and never heard from: its own values are not known until it comes back. */
  const away = async (prefix: string) => {
    const d = await registerDevice(runtime.db, { sn: uniqueSerial(prefix), phaseType: 2 });
    await runtime.db.query("UPDATE device SET rated_power = 12 WHERE id = $1", [d.id]);
    return d;
  };
  const comesBack = async (d: { id: number; sn: string; secret: string }) => {
    const back = await manualDevice(runtime, d, "three", "rome");
    sims.push(back);
    return { back, own: { ...back.brain.settings } };
  };
  /** A staff member's change waiting in the device's queue (not the grid's). */
  const queuedByStaff = (deviceId: number, key: string, value: number) =>
    insertWrites(runtime.db, [
      {
        tenantId: 1,
        deviceId,
        bulkId: null,
        kind: "setting",
        changes: [{ key, old: null, new: value }],
        command: null,
        createdBy: null,
        createdByName: "Installer",
        expiresAt: new Date(Date.now() + 60_000),
      },
    ]);

  it("reads the own values of a device away longer than the wait once it is back, and gives them back at the control's end", async () => {
    const d = await away("GCB");
    // Away for the whole wait for its own values: the grid writes blind, queued.
    expect(await applier.applyEffectiveControl(d, { opModExpLimW: kw(2) })).toMatchObject({ changed: true, outcome: "queued" });

    const { back, own } = await comesBack(d);
    expect(own).toMatchObject({ TP_0X03_1028: 100, TP_0X03_1039: 0 });
    await expect.poll(async () => (await applier.controlState(d.id)).outcome, { timeout: 10_000 }).toBe("acknowledged");
    expect(back.brain.settings).toMatchObject({ TP_0X03_1028: 16, TP_0X03_1039: 1 });

    expect(await applier.applyEffectiveControl(d, null)).toMatchObject({ changed: true, outcome: "acknowledged" });
    expect(back.brain.settings.TP_0X03_1028).toBe(own.TP_0X03_1028);
    expect(back.brain.settings.TP_0X03_1039).toBe(own.TP_0X03_1039);
    expect(await vpp(d.id)).toBe(false);
  });

  it("does not send a control that ended while the device was away: back, it keeps its own values, and a staff change queued after still goes", async () => {
    const d = await away("GCE");
    expect(await applier.applyEffectiveControl(d, { opModExpLimW: kw(2) })).toMatchObject({ changed: true, outcome: "queued" });
    await queuedByStaff(d.id, "TP_0X03_1029", 80);
    // Nothing known to give back.
    expect(await applier.applyEffectiveControl(d, null)).toMatchObject({ changed: false });
    expect(await vpp(d.id)).toBe(false);

    const { back, own } = await comesBack(d);
    await expect.poll(online(d.id), { timeout: 10_000 }).toBe(1);
    await writer.flushDevice(d.id);
    // The queue is sent in order: the staff change behind the grid's write arrived.
    await expect.poll(() => back.brain.settings.TP_0X03_1029, { timeout: 10_000 }).toBe(80);
    expect(back.brain.settings.TP_0X03_1028).toBe(own.TP_0X03_1028);
    expect(back.brain.settings.TP_0X03_1039).toBe(own.TP_0X03_1039);
    const grid = await runtime.db.query<{ state: string; refusal: string | null }>(
      "SELECT state, refusal FROM device_write WHERE device_id = $1 AND created_by_name = $2",
      [d.id, GRID_AUTHOR],
    );
    expect(grid.rows).toEqual([{ state: "timed_out", refusal: "controlEnded" }]);
  });

  it("runs the steps before a device's queued writes once, before the first is sent, and sends them though one fails", async () => {
    const d = await connected("GCH", "three");
    // Queued just now for an online device: only the flush below sends it (the sweeps leave young records alone).
    await queuedByStaff(d.id, "TP_0X03_1029", 90);
    const seen: string[][] = [];
    const offBroken = writer.beforeFlush(async () => {
      throw new Error("broken step");
    });
    const offSeen = writer.beforeFlush(async (id) => {
      if (id !== d.id) return;
      const { rows } = await runtime.db.query<{ state: string }>("SELECT state FROM device_write WHERE device_id = $1", [id]);
      seen.push(rows.map((r) => r.state));
    });
    try {
      await writer.flushDevice(d.id);
      expect(d.sim.brain.settings.TP_0X03_1029).toBe(90);
      expect(seen).toEqual([["queued"]]);
      // Nothing queued: no step runs.
      await writer.flushDevice(d.id);
      expect(seen).toHaveLength(1);
    } finally {
      offBroken();
      offSeen();
    }
  });

  it("records a device's refusal as the outcome, and does not send the same control again", async () => {
    const d = await connected("GCR", "three");
    d.sim.upgrading = true;
    const result = await applier.applyEffectiveControl(d, { opModGenLimW: kw(6) });
    expect(result).toMatchObject({ changed: true, outcome: "refused" });
    expect(result.writes[0]).toMatchObject({ state: "refused", refusal: "busy" });
    expect(d.sim.brain.settings.TP_0X03_1029).toBe(100);
    d.sim.upgrading = false;
    expect(await applier.applyEffectiveControl(d, { opModGenLimW: kw(6) })).toMatchObject({ changed: false, outcome: "refused" });
  });
});
