import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  checkSettingChange,
  checkSettingDraft,
  checkSettingRules,
  FOUR_WIRE_ONLY,
  SETTING_RULE_REGISTERS,
} from "./setting-value-rules.ts";

const T = SETTING_RULE_REGISTERS.three;
const S = SETTING_RULE_REGISTERS.single;
/** Tenths of a volt, as the registers hold them (scale 0.1). */
const volts = fc.integer({ min: 0, max: 10_000 }).map((t) => t / 10);
const keys = (problems: { key: string }[]) => problems.map((p) => p.key);

describe("battery gaps (spec §5)", () => {
  for (const [name, hi, lo, gap, key] of [
    ["DOD over EOD (three-phase)", T.dod, T.eod, 1, "settings:dodAboveEod"],
    ["DOD over EOD (single-phase)", S.dod, S.eod, 1, "settings:dodAboveEod"],
    ["bulk over float", T.bulk, T.float, 1, "settings:bulkAboveFloat"],
  ] as const) {
    it(`${name}: refused exactly when the gap is under ${gap} V`, () => {
      fc.assert(
        fc.property(volts, volts, fc.boolean(), (h, l, changeHigh) => {
          const problems = checkSettingRules(
            hi.startsWith("TP") ? "three" : "single",
            { [hi]: h, [lo]: l },
            new Set([changeHigh ? hi : lo]),
          );
          const refused = keys(problems).includes(key);
          expect(refused).toBe(Math.round(h * 10) < Math.round(l * 10) + gap * 10);
          if (refused) expect(problems[0]?.field).toBe(changeHigh ? hi : lo);
        }),
      );
    });
  }

  it("grid-on SOC at least 10 % above grid-off SOC", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }), (on, off) => {
        const refused = keys(
          checkSettingRules("three", { [T.gridOnSoc]: on, [T.gridOffSoc]: off }, new Set([T.gridOnSoc])),
        ).includes("settings:gridOnAboveGridOff");
        expect(refused).toBe(on < off + 10);
      }),
    );
  });

  it("an untouched rule is not reported (a stored break can be repaired field by field)", () => {
    expect(checkSettingRules("three", { [T.dod]: 40, [T.eod]: 45, [T.buzzer]: 5 }, new Set([T.buzzer]))).toEqual([]);
  });
});

describe("anti-backflow and buzzer", () => {
  it("anti-backflow 0–150, above 100 only with AC coupling", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -50, max: 300 }),
        fc.constantFrom(0, 1),
        fc.constantFrom(...T.antiBackflow),
        (pct, coupling, id) => {
          const k = keys(checkSettingRules("three", { [id]: pct, [T.acCoupling]: coupling, [T.wiring]: 1 }, new Set([id])));
          if (pct < 0 || pct > 150) expect(k).toEqual(["settings:antiBackflowRange"]);
          else if (pct > 100 && coupling !== 1) expect(k).toEqual(["settings:antiBackflowNeedsAcCoupling"]);
          else expect(k).toEqual([]);
        },
      ),
    );
  });

  it("switching AC coupling off under an export limit above 100 % is refused", () => {
    const k = keys(checkSettingRules("single", { [S.antiBackflow[0]]: 120, [S.acCoupling]: 0 }, new Set([S.acCoupling])));
    expect(k).toEqual(["settings:antiBackflowNeedsAcCoupling"]);
  });

  it("buzzer 0–60 through the catalogue range and the rule", () => {
    fc.assert(
      fc.property(fc.integer({ min: -100, max: 200 }), (s) => {
        const problems = checkSettingChange("three", {}, { [T.buzzer]: s });
        expect(problems.length > 0).toBe(s < 0 || s > 60);
      }),
    );
  });
});

describe("three-phase four-wire only", () => {
  it("per-phase settings need wiring set to four-wire", () => {
    fc.assert(
      fc.property(fc.constantFrom(...FOUR_WIRE_ONLY), fc.constantFrom(0, 1), (id, wiring) => {
        const k = keys(checkSettingRules("three", { [id]: 50, [T.wiring]: wiring }, new Set([id])));
        expect(k.includes("settings:fourWireOnly")).toBe(wiring !== 1);
      }),
    );
  });
});

describe("values against the catalogue", () => {
  it("refuses unknown, read-only and other-product registers and values off the register's step", () => {
    expect(keys(checkSettingChange("three", {}, { TP_0X04_25: 5 }))).toEqual(["settings:notSettable"]);
    expect(keys(checkSettingChange("three", {}, { batteryDod: 50 }))).toEqual(["settings:notSettable"]);
    expect(keys(checkSettingChange("three", {}, { nothing: 1 }))).toEqual(["settings:notSettable"]);
    expect(keys(checkSettingChange("three", {}, { [T.dod]: 50.05 }))).toEqual(["settings:notOnStep"]);
    expect(keys(checkSettingChange("three", {}, { TP_0X03_72: 9 }))).toEqual(["settings:notAnOption"]);
    expect(checkSettingChange("three", { [T.eod]: 45 }, { [T.dod]: 46.5 })).toEqual([]);
  });
});

describe("a form's unsaved settings checked at once", () => {
  it("refuses an anti-backflow value out of range by its range, and a broken gap beside it, together", () => {
    const problems = checkSettingDraft(
      "three",
      { [T.dod]: 50, [T.eod]: 45, [T.acCoupling]: 1 },
      {
        [T.antiBackflow[0]]: 200,
        [T.dod]: 44,
      },
    );
    expect(problems.map((p) => [p.field, p.key])).toEqual([
      [T.antiBackflow[0], "settings:outOfRange"],
      [T.dod, "settings:dodAboveEod"],
    ]);
    expect(problems[0]?.values).toMatchObject({ min: 0, max: 150 });
  });

  it("has nothing to say once every value is fixed", () => {
    expect(checkSettingDraft("three", { [T.acCoupling]: 1 }, { [T.antiBackflow[0]]: 150 })).toEqual([]);
  });
});
