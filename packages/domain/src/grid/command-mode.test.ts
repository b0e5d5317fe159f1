import { describe, expect, it } from "vitest";
import { commandMode, scaledWatts } from "./command-mode.ts";
import { GRID_COMMAND_MODES } from "./site-states.ts";

describe("commandMode", () => {
  it("calls de-energise and disconnect emergencies, whatever the limits", () => {
    expect(commandMode({ opModEnergize: false })).toBe(GRID_COMMAND_MODES.emergency);
    expect(commandMode({ opModConnect: false, opModExpLimW: { value: 5, multiplier: 3 } })).toBe(GRID_COMMAND_MODES.emergency);
  });
  it("calls zero export and zero import pure PV, zero written with any multiplier", () => {
    expect(commandMode({ opModExpLimW: { value: 0, multiplier: 0 }, opModImpLimW: { value: 0, multiplier: 2 } })).toBe(
      GRID_COMMAND_MODES.purePv,
    );
  });
  it("calls a positive export limit, a fixed export or a discharging storage target selling", () => {
    expect(commandMode({ opModExpLimW: { value: 15, multiplier: 2 } })).toBe(GRID_COMMAND_MODES.sell);
    expect(commandMode({ opModFixedW: 5000 })).toBe(GRID_COMMAND_MODES.sell);
    expect(commandMode({ opModStorageTargetW: { value: 5, multiplier: 3 } })).toBe(GRID_COMMAND_MODES.sell);
  });
  it("calls no limit, an import limit alone or zero export with open import regular", () => {
    expect(commandMode({})).toBe(GRID_COMMAND_MODES.regular);
    expect(commandMode({ opModEnergize: true, opModImpLimW: { value: 0, multiplier: 0 } })).toBe(GRID_COMMAND_MODES.regular);
    expect(commandMode({ opModExpLimW: { value: 0, multiplier: 0 } })).toBe(GRID_COMMAND_MODES.regular);
    expect(commandMode({ opModFixedW: -2000 })).toBe(GRID_COMMAND_MODES.regular);
    expect(commandMode({ opModStorageTargetW: { value: -5, multiplier: 3 } })).toBe(GRID_COMMAND_MODES.regular);
  });
  it("applies the power-of-ten multiplier", () => {
    expect(scaledWatts({ value: 15, multiplier: 2 })).toBe(1500);
    expect(scaledWatts({ value: 15, multiplier: -1 })).toBeCloseTo(1.5);
  });
});
