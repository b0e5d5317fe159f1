import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkGenerator, type GeneratorInput } from "./generator-rules.ts";
import { checkMode } from "./mode-rules.ts";
import { checkSchedule, QUARTER_OFFSETS, SCHEDULE_LAYOUT } from "./schedule/index.ts";
import { checkTariff, priceProblem } from "./tariff-rules.ts";
import { checkTimePeriods, DAY_LAST_MINUTE, timeOf } from "./time-periods.ts";

const minute = fc.integer({ min: 0, max: DAY_LAST_MINUTE });
const period = fc.tuple(minute, minute).map(([a, b]) => ({ start: timeOf(a), end: timeOf(b) }));
/** A day cut at sorted distinct points: contiguous periods covering 00:00–23:59. */
const wholeDay = fc.uniqueArray(fc.integer({ min: 1, max: DAY_LAST_MINUTE - 1 }), { maxLength: 6 }).map((cuts) => {
  const points = [0, ...cuts.sort((a, b) => a - b), DAY_LAST_MINUTE];
  return points.slice(1).map((end, i) => ({ start: timeOf(points[i] as number), end: timeOf(end) }));
});
const keys = (problems: { key: string }[]) => problems.map((p) => p.key);

/** Reference answer for overlap: any two periods sharing a minute. */
const overlaps = (ps: { start: string; end: string }[]) => {
  const m = ps.map((p) => [
    Number(p.start.slice(0, 2)) * 60 + Number(p.start.slice(3)),
    Number(p.end.slice(0, 2)) * 60 + Number(p.end.slice(3)),
  ]);
  return m.some(([a, b], i) => m.some(([c, d], j) => i !== j && (a as number) < (d as number) && (c as number) < (b as number)));
};

describe("time periods (spec §5)", () => {
  it("refuses a period whose start is not before its end", () => {
    fc.assert(
      fc.property(period, (p) => {
        const k = keys(checkTimePeriods([p], { field: "p" }));
        expect(k.includes("schedules:periodStartNotBeforeEnd")).toBe(p.start >= p.end);
      }),
    );
  });
  it("refuses overlaps exactly when two valid periods share a minute", () => {
    fc.assert(
      fc.property(
        fc.array(
          period.filter((p) => p.start < p.end),
          { minLength: 1, maxLength: 5 },
        ),
        (ps) => {
          expect(keys(checkTimePeriods(ps, { field: "p" })).includes("schedules:periodsOverlap")).toBe(overlaps(ps));
        },
      ),
    );
  });
  it("accepts any contiguous cut of the whole day, refuses it with a gap or a missing time", () => {
    fc.assert(
      fc.property(wholeDay, fc.nat(), (ps, pick) => {
        expect(checkTimePeriods(ps, { field: "p", coverDay: true })).toEqual([]);
        const drop = pick % ps.length;
        const dropped = ps[drop] as { start: string; end: string };
        const length =
          Number(dropped.end.slice(0, 2)) * 60 +
          Number(dropped.end.slice(3)) -
          (Number(dropped.start.slice(0, 2)) * 60 + Number(dropped.start.slice(3)));
        // A one-minute hole between periods is how consoles write 11:59 then 12:00, so it counts as meeting.
        if (ps.length > 1 && (drop === 0 || drop === ps.length - 1 || length > 1)) {
          const gapped = ps.filter((_, i) => i !== drop);
          expect(keys(checkTimePeriods(gapped, { field: "p", coverDay: true }))).toEqual(["schedules:periodsNotWholeDay"]);
        }
        const missing = ps.map((p, i) => (i === pick % ps.length ? { ...p, end: "" } : p));
        expect(keys(checkTimePeriods(missing, { field: "p", coverDay: true }))).toContain("schedules:periodMissingTime");
      }),
    );
  });
  it("an empty list is refused where a period is required", () => {
    expect(keys(checkTimePeriods([], { field: "p", required: true }))).toEqual(["schedules:periodsEmpty"]);
  });
});

describe("tariffs (spec §5)", () => {
  const validPrice = fc
    .tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 9_999_999 }), fc.integer({ min: 0, max: 7 }))
    .map(([i, f, d]) => (d === 0 ? String(i) : `${i}.${String(f).padStart(7, "0").slice(0, d)}`));
  it("accepts whole-day buy and sell periods with valid prices", () => {
    fc.assert(
      fc.property(wholeDay, wholeDay, validPrice, (buy, sell, price) => {
        expect(checkTariff({ buy: buy.map((p) => ({ ...p, price })), sell: sell.map((p) => ({ ...p, price })) })).toEqual([]);
      }),
    );
  });
  it("refuses prices of 100 or more, more than 7 decimals, or not numbers", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: 100, max: 100_000 }).map(String),
          validPrice.map((p) => `${p.includes(".") ? p : `${p}.`}12345678`),
          fc.constantFrom("", "abc", "-1", "1e3", "1.2.3"),
        ),
        (price) => {
          expect(priceProblem(price)).not.toBeNull();
        },
      ),
    );
    expect(priceProblem("99.9999999")).toBeNull();
    expect(priceProblem(0.25)).toBeNull();
  });
  it("refuses a sell side that misses part of the day", () => {
    const buy = [{ start: "00:00", end: "23:59", price: "0.3" }];
    expect(keys(checkTariff({ buy, sell: [{ start: "00:00", end: "12:00", price: "0.1" }] }))).toEqual([
      "schedules:periodsNotWholeDay",
    ]);
  });
});

describe("generator (spec §5)", () => {
  const base: GeneratorInput = {
    on: false,
    ratedPowerKw: 20,
    availablePct: 80,
    controlMode: "manual",
    slots: [{ start: "06:00", end: "09:00" }],
    outputMode: 0,
    chargePowerKw: 3,
  };
  it("SOC control needs both bounds, upper above lower", () => {
    fc.assert(
      fc.property(fc.option(fc.integer({ min: 0, max: 100 })), fc.option(fc.integer({ min: 0, max: 100 })), (lo, hi) => {
        const k = keys(checkGenerator({ ...base, controlMode: "soc", socLower: lo, socUpper: hi }, { gridConnected: false }));
        const ok = lo !== null && hi !== null && hi > lo;
        expect(k.length === 0).toBe(ok);
      }),
    );
  });
  it("cannot be switched on while the grid is connected; conflicting slots are named so", () => {
    expect(keys(checkGenerator({ ...base, on: true }, { gridConnected: true }))).toEqual(["generator:gridConnected"]);
    expect(checkGenerator({ ...base, on: true }, { gridConnected: false })).toEqual([]);
    const slots = [
      { start: "06:00", end: "09:00" },
      { start: "08:00", end: "10:00" },
    ];
    expect(keys(checkGenerator({ ...base, slots }, { gridConnected: false }))).toEqual(["generator:slotsConflict"]);
    fc.assert(
      fc.property(fc.integer({ min: -100, max: 200 }), (kw) => {
        const k = keys(checkGenerator({ ...base, ratedPowerKw: kw }, { gridConnected: false }));
        expect(k.includes("generator:ratedPowerRange")).toBe(kw < 10 || kw > 50);
      }),
    );
    expect(keys(checkGenerator({ ...base, ratedPowerKw: null, chargePowerKw: undefined }, { gridConnected: false }))).toEqual([
      "generator:ratedPowerRequired",
      "generator:chargePowerRequired",
    ]);
  });
});

describe("modes and schedules", () => {
  it("a mode's periods cover the whole day and its fields are required", () => {
    const mode = { code: "M1", name: "Peak", description: "d", chargeSoc: 90, sellSoc: 30, dischargeOffSoc: 10 };
    fc.assert(
      fc.property(wholeDay, (periods) => {
        expect(checkMode({ ...mode, periods })).toEqual([]);
      }),
    );
    expect(keys(checkMode({ ...mode, name: " ", chargeSoc: null, periods: [{ start: "00:00", end: "20:00" }] }))).toEqual([
      "validation:required",
      "validation:required",
      "schedules:periodsNotWholeDay",
    ]);
  });
  it("quarters' month ranges may not overlap", () => {
    const { prefix, quarters } = SCHEDULE_LAYOUT.three;
    const id = (q: number, o: number) => `${prefix}${(quarters[q] as number) + o}`;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 12 })), { minLength: 4, maxLength: 4 }),
        (ranges) => {
          const values: Record<string, number> = {};
          ranges.forEach(([s, e], q) => {
            values[id(q, QUARTER_OFFSETS.startMonth)] = s;
            values[id(q, QUARTER_OFFSETS.endMonth)] = e;
          });
          const changed = new Set(Object.keys(values));
          const k = keys(checkSchedule("three", values, changed));
          const forward = ranges.filter(([s, e]) => s <= e);
          const overlap = forward.some(([a, b], i) => forward.some(([c, d], j) => i < j && a <= d && c <= b));
          expect(k.includes("schedules:rangesOverlap")).toBe(overlap);
          expect(k.includes("schedules:endMonthBeforeStart")).toBe(ranges.some(([s, e]) => s > e));
        },
      ),
    );
  });
});
