import { describe, expect, it } from "vitest";
import { getRegister } from "../catalogue/catalogue.ts";
import { checkSettingChange } from "../settings/setting-value-rules.ts";
import { CONTROL_REGISTERS, type ControlDevice, controlTarget, registerValue } from "./control-mappings.ts";

const three: ControlDevice = { product: "three", ratedW: 12_000, batteryV: 400, fourWire: true };
const single: ControlDevice = { product: "single", ratedW: 6000, batteryV: 150, fourWire: false };
const kw = (value: number) => ({ value, multiplier: 3 });

describe("controlTarget, three-phase", () => {
  it("turns a site export limit into the anti-backflow percentage of the rating on every phase, switched on", () => {
    const t = controlTarget(three, { opModExpLimW: { value: 30, multiplier: 2 } });
    expect(t.settings).toEqual({ TP_0X03_1028: 25, TP_0X03_1098: 25, TP_0X03_1099: 25, TP_0X03_1039: 1 });
    expect(t.notApplicable).toEqual([]);
  });
  it("leaves the per-phase limits alone on a three-wire device (they mean nothing there)", () => {
    const t = controlTarget({ ...three, fourWire: false }, { opModExpLimW: kw(3) });
    expect(t.settings).toEqual({ TP_0X03_1028: 25, TP_0X03_1039: 1 });
  });
  it("rounds an export limit down, and clamps one above the rating to 100 %", () => {
    expect(controlTarget(three, { opModExpLimW: { value: 1999, multiplier: 0 } }).settings.TP_0X03_1028).toBe(16);
    expect(controlTarget(three, { opModExpLimW: kw(50) }).settings.TP_0X03_1028).toBe(100);
    expect(controlTarget(three, { opModExpLimW: { value: -5, multiplier: 3 } }).settings.TP_0X03_1028).toBe(0);
  });
  it("caps the output at the tighter of the generation limit and opModMaxLimW, and the discharge current at the generation limit", () => {
    const t = controlTarget(three, { opModGenLimW: kw(6), opModMaxLimW: 7500 });
    expect(t.settings).toEqual({ TP_0X03_1029: 50, TP_0X03_1049: 15 });
    expect(controlTarget(three, { opModMaxLimW: 2550 }).settings).toEqual({ TP_0X03_1029: 25 });
  });
  it("limits the charge current by the tighter of the load and import limits, at the battery voltage, to the register's 200 A", () => {
    expect(controlTarget(three, { opModLoadLimW: kw(4), opModImpLimW: kw(2) }).settings).toEqual({ TP_0X03_1048: 5 });
    expect(controlTarget(three, { opModLoadLimW: { value: 1234, multiplier: 0 } }).settings).toEqual({ TP_0X03_1048: 3 });
    expect(controlTarget({ ...three, batteryV: 50 }, { opModLoadLimW: kw(20) }).settings).toEqual({ TP_0X03_1048: 200 });
  });
  it("charges from the grid at a negative storage target, idles the battery at zero", () => {
    expect(controlTarget(three, { opModStorageTargetW: kw(-2) }).settings).toEqual({
      TP_0X03_1048: 5,
      TP_0X03_71: 2,
      TP_0X03_72: 4,
    });
    expect(controlTarget(three, { opModStorageTargetW: kw(0) }).settings).toEqual({ TP_0X03_1048: 0, TP_0X03_1049: 0 });
  });
  it("feeds the grid at a positive storage target: full power feed mode, discharge current at the target, rounded down", () => {
    const t = controlTarget(three, { opModStorageTargetW: { value: 3999, multiplier: 0 } });
    expect(t.settings).toEqual({ TP_0X03_1049: 9.9, TP_0X03_71: 2, TP_0X03_72: 3 });
    expect(t.notApplicable).toEqual([]);
  });
  it("discharges at the tighter of the storage target and the generation limit, clamped to the register's 200 A", () => {
    expect(controlTarget(three, { opModStorageTargetW: kw(6), opModGenLimW: kw(2) }).settings).toMatchObject({
      TP_0X03_1049: 5,
      TP_0X03_72: 3,
    });
    expect(controlTarget({ ...three, batteryV: 50 }, { opModStorageTargetW: kw(20) }).settings.TP_0X03_1049).toBe(200);
  });
  it("holds the export limit beside a discharge target, so the grid never sees more than the limit", () => {
    const t = controlTarget(three, { opModStorageTargetW: kw(8), opModExpLimW: kw(3) });
    expect(t.settings).toEqual({
      TP_0X03_1028: 25,
      TP_0X03_1098: 25,
      TP_0X03_1099: 25,
      TP_0X03_1039: 1,
      TP_0X03_1049: 20,
      TP_0X03_71: 2,
      TP_0X03_72: 3,
    });
    expect(t.notApplicable).toEqual([]);
  });
  it("reads opModFixedW as hundredths of a percent of the rating when no storage target is given", () => {
    expect(controlTarget(three, { opModFixedW: -5000 }).settings).toMatchObject({ TP_0X03_1048: 15, TP_0X03_72: 4 });
    expect(controlTarget(three, { opModFixedW: 5000 }).settings).toEqual({ TP_0X03_1049: 15, TP_0X03_71: 2, TP_0X03_72: 3 });
  });
  it("sets the ramp rate from setGradW (hundredths of a percent of the rating per second)", () => {
    expect(controlTarget(three, { setGradW: 27 }).settings).toEqual({ TP_0X03_1030: 0.27 });
    expect(controlTarget(single, { setGradW: 50_000 }).settings).toEqual({ powerSettingAdjustmentRate: 100 });
  });
  it("sets the ramp rate so that a full-scale move fits within the control's rampTms, which wins over setGradW", () => {
    // 10 s for 100 %: 10 %/s; 30 s: 3.34 %/s (rounded up, never slower than asked).
    expect(controlTarget(three, { rampTms: 1000, setGradW: 27 }).settings).toEqual({ TP_0X03_1030: 10 });
    expect(controlTarget(single, { rampTms: 3000 }).settings).toEqual({ powerSettingAdjustmentRate: 3.34 });
    // Faster than the register allows, or at once: its fastest rate.
    expect(controlTarget(three, { rampTms: 50 }).settings).toEqual({ TP_0X03_1030: 100 });
    expect(controlTarget(three, { rampTms: 0 }).settings).toEqual({ TP_0X03_1030: 100 });
  });
  it("switches the device off when de-energised or disconnected, and leaves it when energised", () => {
    expect(controlTarget(three, { opModEnergize: false }).power).toBe("off");
    expect(controlTarget(three, { opModConnect: false }).power).toBe("off");
    expect(controlTarget(three, { opModEnergize: true }).power).toBeNull();
  });
  it("says which limits it cannot turn into a current while the battery voltage is unknown, and still sets the others", () => {
    const t = controlTarget({ ...three, batteryV: null }, { opModLoadLimW: kw(2), opModExpLimW: kw(6) });
    expect(t.settings).toEqual({ TP_0X03_1028: 50, TP_0X03_1098: 50, TP_0X03_1099: 50, TP_0X03_1039: 1 });
    expect(t.notApplicable).toEqual([{ field: "opModLoadLimW", reason: "batteryVoltageUnknown" }]);
  });
  it("does not switch to full power feed while the battery voltage is unknown, and still holds the export limit", () => {
    const t = controlTarget({ ...three, batteryV: null }, { opModStorageTargetW: kw(8), opModExpLimW: kw(3) });
    expect(t.settings).toEqual({ TP_0X03_1028: 25, TP_0X03_1098: 25, TP_0X03_1099: 25, TP_0X03_1039: 1 });
    expect(t.notApplicable).toEqual([{ field: "opModStorageTargetW", reason: "batteryVoltageUnknown" }]);
    expect(controlTarget({ ...three, batteryV: null }, { opModFixedW: 5000 }).notApplicable).toEqual([
      { field: "opModFixedW", reason: "batteryVoltageUnknown" },
    ]);
  });
});

describe("controlTarget, single-phase", () => {
  it("maps every limit to the single-phase keys; there is no anti-backflow switch", () => {
    const t = controlTarget(single, {
      opModExpLimW: kw(1.5),
      opModGenLimW: kw(3),
      opModLoadLimW: kw(1.5),
      opModEnergize: false,
    });
    expect(t.settings).toEqual({
      antiBackflowPowerPercentage: 25,
      maximumOutputPowerPercentage: 50,
      batteryDischargeCurrent: 20,
      batteryChargingCurrent: 10,
    });
    expect(t.power).toBe("off");
  });
  it("charges from the grid through the real-time system mode", () => {
    expect(controlTarget(single, { opModStorageTargetW: kw(-1.5) }).settings).toEqual({
      batteryChargingCurrent: 10,
      timingModeType: 2,
      systemModeSet: 4,
    });
  });
  it("feeds the grid in full power feed mode at the discharge current, the export limit held beside it", () => {
    const t = controlTarget(single, { opModStorageTargetW: kw(3), opModExpLimW: kw(1.5) });
    expect(t.settings).toEqual({
      antiBackflowPowerPercentage: 25,
      batteryDischargeCurrent: 20,
      timingModeType: 2,
      systemModeSet: 3,
    });
    expect(t.notApplicable).toEqual([]);
  });
  it("says the discharge target is not applicable while the battery voltage is unknown", () => {
    const t = controlTarget({ ...single, batteryV: null }, { opModStorageTargetW: kw(3), opModExpLimW: kw(1.5) });
    expect(t.settings).toEqual({ antiBackflowPowerPercentage: 25 });
    expect(t.notApplicable).toEqual([{ field: "opModStorageTargetW", reason: "batteryVoltageUnknown" }]);
  });
});

describe("every value a control produces", () => {
  const controls = [
    { opModExpLimW: kw(0) },
    { opModExpLimW: kw(100) },
    { opModGenLimW: kw(0), opModLoadLimW: kw(100), opModImpLimW: kw(7) },
    { opModMaxLimW: 10_000, opModStorageTargetW: kw(-100) },
    { opModStorageTargetW: kw(0) },
    { opModStorageTargetW: kw(100), opModExpLimW: kw(1) },
    { setGradW: 1 },
  ];
  for (const device of [three, single]) {
    it(`is one the ${device.product}-phase product's own rules accept`, () => {
      const fourWire = device.product === "three" ? { TP_0X03_1100: 1 } : {};
      for (const base of controls) {
        const { settings } = controlTarget(device, base);
        expect(Object.keys(settings).length).toBeGreaterThan(0);
        expect(checkSettingChange(device.product, fourWire, settings)).toEqual([]);
      }
    });
  }
  it("names only registers of its product", () => {
    for (const product of ["three", "single"] as const) {
      const ids = CONTROL_REGISTERS[product];
      for (const id of [ids.exportPct, ids.outputPct, ids.chargeA, ids.dischargeA, ids.mode, ids.scheduleType, ids.ramp]) {
        expect(getRegister(id)).toMatchObject({ id, product, access: "readWrite" });
      }
    }
    expect(() => registerValue("TP_0X03_99999", 1)).toThrow();
  });
});
