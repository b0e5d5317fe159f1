import { describe, expect, it } from "vitest";
import { invalidControlFields } from "./control-validity.ts";

const kw = (value: number) => ({ value, multiplier: 3 });

describe("invalidControlFields", () => {
  it("takes a control with limits, percentages and switches in range as valid", () => {
    expect(invalidControlFields({ opModExpLimW: kw(0), opModImpLimW: kw(5) })).toEqual([]);
    expect(invalidControlFields({ opModMaxLimW: 10_000, opModFixedW: -10_000, opModEnergize: false })).toEqual([]);
    // A storage target is signed: below zero charges.
    expect(invalidControlFields({ opModStorageTargetW: kw(-3) })).toEqual([]);
  });

  it("names a negative limit, a percentage out of range and a control without modes", () => {
    expect(invalidControlFields({ opModExpLimW: kw(-1), opModGenLimW: kw(2) })).toEqual(["opModExpLimW"]);
    expect(invalidControlFields({ opModMaxLimW: 10_001 })).toEqual(["opModMaxLimW"]);
    expect(invalidControlFields({ opModMaxLimW: -1, opModFixedW: 12_000 })).toEqual(["opModMaxLimW", "opModFixedW"]);
    expect(invalidControlFields({})).toEqual(["DERControlBase"]);
  });
});
