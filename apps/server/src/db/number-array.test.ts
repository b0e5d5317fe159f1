import { describe, expect, it } from "vitest";
import { numberArray } from "./number-array.ts";

describe("numberArray", () => {
  it("writes numbers and nulls as PostgreSQL's array literal", () => {
    expect(numberArray([1, -2.5, null, 1e-7, 123456789012, undefined])).toBe("{1,-2.5,NULL,1e-7,123456789012,NULL}");
    expect(numberArray([])).toBe("{}");
  });

  it("refuses what is not a finite number", () => {
    expect(() => numberArray([1, Number.NaN])).toThrow(RangeError);
    expect(() => numberArray([Number.POSITIVE_INFINITY])).toThrow(RangeError);
  });
});
