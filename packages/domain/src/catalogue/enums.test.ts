import { describe, expect, it } from "vitest";
import { ENUM_NAMES, ENUMS, type EnumValue, isEnumValue, SPEC_ENUMS } from "./enums.ts";

describe("enumeration table", () => {
  it("has sorted, unique codes in every enumeration", () => {
    for (const name of ENUM_NAMES) {
      const values = ENUMS[name].values;
      expect(values.length, name).toBeGreaterThan(0);
      expect(
        [...values].sort((a, b) => a - b),
        name,
      ).toEqual(values);
      expect(new Set(values).size, name).toBe(values.length);
    }
  });

  it("maps every spec alias to an enumeration and types its codes", () => {
    for (const target of Object.values(SPEC_ENUMS)) expect(ENUMS[target], target).toBeDefined();
    const mode: EnumValue<"systemModeFilter"> = 4;
    expect(isEnumValue("systemModeFilter", mode)).toBe(true);
    expect(isEnumValue("onlineStatusFilter", 3)).toBe(false);
  });
});
