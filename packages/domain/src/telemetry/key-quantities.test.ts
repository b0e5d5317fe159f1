import { describe, expect, it } from "vitest";
import { getRegister } from "../catalogue/catalogue.ts";
import { ENERGY_COUNTERS, KEY_QUANTITIES, unitFactor } from "./key-quantities.ts";

describe("key quantities", () => {
  it("point at registers of the right product whose unit converts to the quantity's unit", () => {
    for (const kq of KEY_QUANTITIES) {
      for (const [product, ids] of [
        ["three", kq.three],
        ["single", kq.single],
      ] as const) {
        for (const id of ids) {
          const r = getRegister(id);
          expect(r, `${kq.column} ${id}`).toBeDefined();
          expect(r?.product, `${kq.column} ${id}`).toBe(product);
          if (kq.unit && r)
            expect(r.unit === kq.unit || unitFactor(r.unit, kq.unit) !== 1, `${kq.column} ${id} ${r.unit}`).toBe(true);
        }
      }
    }
  });

  it("has a daily and a total counter for every energy flow on both products", () => {
    const columns = KEY_QUANTITIES.map((k) => k.column) as string[];
    for (const c of ENERGY_COUNTERS) {
      for (const suffix of ["today", "total"]) {
        const kq = KEY_QUANTITIES.find((k) => k.column === `${c}_${suffix}`);
        expect(columns).toContain(`${c}_${suffix}`);
        expect(kq?.three.length, `${c}_${suffix}`).toBe(1);
        expect(kq?.single.length, `${c}_${suffix}`).toBe(1);
      }
    }
  });
});
