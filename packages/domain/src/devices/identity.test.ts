import { describe, expect, it } from "vitest";
import { getRegister } from "../catalogue/catalogue.ts";
import { IDENTITY_REGISTERS, IDENTITY_SETTINGS, identityOfReading, shownIdentityValue } from "./identity.ts";
import { DEVICE_MODELS, deviceModel } from "./models.ts";

describe("a device's identity", () => {
  it("reads what a three-phase inverter names itself, trimmed", () => {
    const values: Record<string, string | number> = { TP_0X04_32780_32787: " H3-15K ", TP_0X04_1037: 15, TP_0X04_1031: 13 };
    expect(identityOfReading("three", (r) => values[r])).toEqual({ model: "H3-15K", ratedPower: 15, countryCode: 13 });
  });

  it("knows a single-phase inverter by its rated power, when exactly one model has it", () => {
    expect(identityOfReading("single", (r) => ({ ratedPower: 6, countryCode: 1 })[r])).toEqual({
      model: "H6K",
      ratedPower: 6,
      countryCode: 1,
    });
    expect(identityOfReading("single", (r) => ({ ratedPower: 7.5 })[r])).toEqual({
      model: null,
      ratedPower: 7.5,
      countryCode: null,
    });
  });

  it("takes nothing from a reading that lacks a value or carries it invalid", () => {
    expect(identityOfReading("three", () => null)).toEqual({ model: null, ratedPower: null, countryCode: null });
    expect(identityOfReading("three", (r) => ({ TP_0X04_32780_32787: "   ", TP_0X04_1037: 0 })[r])).toEqual({
      model: null,
      ratedPower: null,
      countryCode: null,
    });
  });

  it("shows the device's word over what staff typed, and what staff typed where the device says nothing", () => {
    expect(shownIdentityValue("H3-10K", "H3-12K")).toEqual({ value: "H3-12K", source: "device" });
    expect(shownIdentityValue("H3-10K", null)).toEqual({ value: "H3-10K", source: "registration" });
    expect(shownIdentityValue(null, null)).toEqual({ value: null, source: "none" });
  });

  it("reads registers the catalogue has, of the kinds it expects", () => {
    for (const product of ["three", "single"] as const) {
      for (const id of Object.values(IDENTITY_REGISTERS[product])) if (id) expect(getRegister(id), id).toBeDefined();
    }
    expect(getRegister(IDENTITY_REGISTERS.three.model)?.type).toBe("string");
    for (const id of IDENTITY_SETTINGS.batteryChemistry) expect(getRegister(id)?.enum).toBe("batteryChemistry");
  });

  it("accepts a model's earlier codes and stores today's", () => {
    expect(deviceModel("T15K")?.code).toBe("H3-15K");
    expect(deviceModel(" h6k ")?.code).toBe("H6K");
    expect(deviceModel("Q9")).toBeUndefined();
    // Every three-phase model is named as the inverters name themselves.
    for (const m of DEVICE_MODELS.filter((x) => x.phaseType === 2)) expect(m.code).toBe(`H3-${m.ratedPowerKw}K`);
  });
});
