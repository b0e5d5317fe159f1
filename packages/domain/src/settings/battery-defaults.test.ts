import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { getRegister } from "../catalogue/catalogue.ts";
import { requiresStandby } from "../telemetry/setting-rules.ts";
import { BATTERY_DEFAULTS, batteryDefaultChanges } from "./battery-defaults.ts";
import { checkRegisterValue, checkSettingChange } from "./setting-value-rules.ts";

describe.each(["three", "single"] as const)("battery defaults of the %s-phase inverter", (product) => {
  const defaults = BATTERY_DEFAULTS[product];
  const ids = Object.keys(defaults);

  it("are settable registers of the model, each default a value the catalogue accepts", () => {
    for (const [id, value] of Object.entries(defaults)) {
      const r = getRegister(id);
      expect(r?.product, id).toBe(product);
      expect(r?.access, id).toBe("readWrite");
      expect(r && checkRegisterValue(r, value), id).toBeNull();
      // Restoring them never needs the inverter stopped.
      expect(r && requiresStandby(r), id).toBe(false);
    }
  });

  it("pass the rules of spec §5 from whatever the device held (grid-on SOC 10 % above off-grid)", () => {
    const settable = fc.record(
      Object.fromEntries(ids.map((id) => [id, fc.integer({ min: getRegister(id)?.min ?? 0, max: getRegister(id)?.max ?? 0 })])),
    );
    fc.assert(
      fc.property(settable, (current) => {
        const changes = batteryDefaultChanges(product, ids, current);
        expect(checkSettingChange(product, current, changes)).toEqual([]);
        expect({ ...current, ...changes }).toEqual(defaults);
      }),
    );
  });

  it("change only what differs from the defaults, and only of what a place shows", () => {
    const [first, second] = ids as [string, string];
    expect(batteryDefaultChanges(product, ids, defaults)).toEqual({});
    expect(batteryDefaultChanges(product, [first], { ...defaults, [first]: -1, [second]: -1 })).toEqual({
      [first]: defaults[first],
    });
    expect(batteryDefaultChanges(product, ["not-a-register"], {})).toEqual({});
  });
});
