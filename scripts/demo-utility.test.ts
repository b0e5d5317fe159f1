import { checkNmi } from "@ess/domain";
import { describe, expect, it } from "vitest";
import { demoNmi } from "./demo-utility.ts";

describe("demo utility", () => {
  it("gives each demo device its own valid Australian NMI in a distribution network's range", () => {
    const nmis = Array.from({ length: 500 }, (_, i) => demoNmi(i));
    expect(new Set(nmis).size).toBe(500);
    for (const nmi of nmis) {
      const check = checkNmi(nmi);
      expect(check.ok && check.network.jurisdiction).toBe("NSW");
    }
  });
});
