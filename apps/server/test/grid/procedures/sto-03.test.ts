import { CONTROL_REGISTERS, controlTarget, FULL_POWER_FEED_MODE, getRegister, type Register, toRaw } from "@ess/domain";
import { DeviceBrain } from "@ess/simulator";
import { type Action, on, type Procedure } from "@ess/utility-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { controlledDevice } from "../../../src/modules/grid/control-applier.repository.ts";
import { plantFor } from "../../helpers/sim.ts";
import { type ProcedureWorld, programWithDefault, runProcedureWorld, SITE_SN } from "./procedure-world.ts";
import { registeredAndCompleted, TaggedControls, w } from "./tagged-controls.ts";

// STO-03 Storage control with export limits (v1.3): once the DER settings are written, a control
// asks the battery to discharge at the DER's own setMaxDischargeRateW while an export limit holds
// what reaches the grid; the client answers it received, started and completed. The device's side
// ("should discharge, exporting no more than the limit") is checked on the settings the console
// makes of the commanded control and on a simulated inverter given them.

const MAX_W = 10_000;
const EXPORT_W = 3000;
const RSP = "/edev/*/rsps/site_control/rsp";
const c = new TaggedControls();

/** create-der-control with opModStorageTargetW = the DER's setMaxDischargeRateW, and opModExpLimW. */
const storageControl: Action = (ctx) => {
  const rate = w(ctx.control.endDevices()[0]?.der.settings?.setMaxDischargeRateW);
  if (rate === undefined) throw new Error("no setMaxDischargeRateW written yet");
  c.create("STO", 0, 120, { storageTargetW: rate, expW: EXPORT_W })(ctx);
};

const STO_03: Procedure = {
  start: ["PUT-DERSETTINGS"],
  steps: {
    "PUT-DERSETTINGS": { event: on.put("/edev/*/der/*/derg"), enables: ["GET-DERP"] },
    "GET-DERP": {
      event: on.get("/edev/*/fsa/1/derp"),
      actions: [storageControl],
      enables: ["POST-RESPONSE-RECEIVED", "POST-RESPONSE-STARTED", "POST-RESPONSE-COMPLETED"],
    },
    "POST-RESPONSE-RECEIVED": { event: on.postServed(RSP, c.latest(1, "STO")) },
    "POST-RESPONSE-STARTED": { event: on.postServed(RSP, c.latest(2, "STO")) },
    "POST-RESPONSE-COMPLETED": { event: on.postServed(RSP, c.latest(3, "STO")), finish: true },
  },
};

/** 22:00 in Sydney: no sun, so what is exported comes from the battery. */
const NIGHT = Date.parse("2026-06-21T12:00:00Z");

describe("STO-03 Storage control with export limits - opModStorageTargetW with opModExpLimW", () => {
  let p: ProcedureWorld;
  /** What the console commanded the site's device while the storage control was in force. */
  const commandedStorage = () => p.world.effective.find((e) => e.active?.source.mrid === c.mrids.get("STO"))?.active?.control;
  beforeAll(async () => {
    p = await runProcedureWorld({
      procedure: STO_03,
      timeoutMs: 25_000,
      site: { ratedPowerKw: MAX_W / 1000 },
      preconditions: [programWithDefault({ impW: MAX_W, expW: MAX_W })],
    });
  }, 40_000);
  afterAll(() => p?.world.close());

  registeredAndCompleted(() => p, Object.keys(STO_03.steps), MAX_W);

  it("response-contents: the storage control answered received, started, completed", () => {
    expect(c.statuses(p.control, "STO")).toEqual([1, 2, 3]);
  });

  it("advertises and is sent the storage target: the DER's full discharge rate, beside the export limit", async () => {
    const der = p.control.endDevices()[0]?.der;
    expect(der?.capability?.vppModesSupported).toBe("01");
    const sent = p.control.controls().find((x) => x.mRID === c.mrids.get("STO"))?.base;
    expect(w(sent?.opModStorageTargetW)).toBe(w(der?.settings?.setMaxDischargeRateW));
    expect(w(sent?.opModStorageTargetW)).toBe(MAX_W);
    const commanded = commandedStorage();
    expect(w(commanded?.opModStorageTargetW)).toBe(MAX_W);
    expect(w(commanded?.opModExpLimW)).toBe(EXPORT_W);
    // Once it ended, the default control (no storage target) is commanded again.
    await expect.poll(() => p.world.effective.at(-1)?.active?.source.kind, { timeout: 10_000 }).toBe("default");
    expect(p.world.effective.at(-1)?.active?.control.opModStorageTargetW).toBeUndefined();
  });

  it("the device feeds the grid in full power feed mode at its discharge current, exporting no more than the limit", async () => {
    const commanded = commandedStorage();
    if (!commanded) throw new Error("nothing commanded while the control was in force");
    const deviceId = p.world.devices.get(SITE_SN) as number;
    const ids = CONTROL_REGISTERS.three;

    // Before the device has reported a battery voltage no power can become a current (the storage
    // target, nor the default's import limit merged in): the utility is told so, and the export
    // limit is held all the same.
    const device = async () => {
      const found = await controlledDevice(p.world.db, deviceId);
      if (!found) throw new Error("the site's device is gone");
      return found;
    };
    const unknown = controlTarget(await device(), commanded);
    expect(unknown.notApplicable).toEqual([
      { field: "opModImpLimW", reason: "batteryVoltageUnknown" },
      { field: "opModStorageTargetW", reason: "batteryVoltageUnknown" },
    ]);
    expect(unknown.settings).toMatchObject({ [ids.exportPct]: 30, [ids.exportEnable]: 1 });

    // The site's inverter (10 kW three-phase) reports its battery voltage.
    const brain = new DeviceBrain({ ...plantFor(SITE_SN, "three", "sydney"), ratedW: MAX_W }, NIGHT, { faultsPerDay: 0 });
    brain.plant.state.soc = 90;
    const batteryV = brain.plant.batteryVoltage();
    await p.world.sample(SITE_SN, p.world.clock.now(), {
      grid: 0,
      gridVar: 0,
      inverter: 0,
      inverterVar: 0,
      voltage: 240,
      soc: 90,
    });
    await p.world.db.query("UPDATE telemetry_history SET battery_voltage = $2 WHERE device_id = $1", [deviceId, batteryV]);

    const target = controlTarget(await device(), commanded);
    expect(target.notApplicable).toEqual([]);
    const amps = Math.floor((MAX_W / batteryV) * 10) / 10;
    expect(target.settings).toEqual({
      [ids.exportPct]: 30,
      [ids.exportEnable]: 1,
      [ids.dischargeA]: amps,
      // The default's 10 kW import limit and ramp rate (setGradW 27), merged into the event.
      [ids.chargeA]: amps,
      [ids.ramp]: 0.27,
      [ids.scheduleType]: 2,
      [ids.mode]: FULL_POWER_FEED_MODE,
    });

    const writes = Object.entries(target.settings).map(([key, value]) => ({
      key,
      raw: toRaw(getRegister(key) as Register, value),
    }));
    expect(brain.write(writes, false, NIGHT).ack).toEqual({ ok: true });
    for (let t = NIGHT + 60_000; t <= NIGHT + 1_800_000; t += 60_000) {
      brain.tick(t);
      const s = brain.plant.state;
      // What the meter measures stays within the limit; the battery gives the house and the limit.
      expect(-s.gridW).toBeLessThanOrEqual(EXPORT_W);
      expect(-s.gridW).toBeGreaterThan(EXPORT_W * 0.95);
      expect(s.batteryW).toBeCloseTo(s.loadW + EXPORT_W, -1);
    }
  });
});
