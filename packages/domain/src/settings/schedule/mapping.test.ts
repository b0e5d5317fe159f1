import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { getRegister, REGISTERS } from "../../catalogue/catalogue.ts";
import { ENUMS, isEnumName } from "../../catalogue/enums.ts";
import { checkSettingChange } from "../setting-value-rules.ts";
import { SCHEDULE_LAYOUT, type ScheduleProduct, scheduleRegisterIds } from "./layout.ts";
import { readSchedule, scheduleChanges, scheduleFieldOf, scheduleFields, writeSchedule } from "./mapping.ts";
import type { DeviceSchedule, ScheduleWindow } from "./model.ts";

const PRODUCTS: ScheduleProduct[] = ["three", "single"];
/** The registers' labels in the source language (Chinese), which name each register's place systematically. */
const SOURCE_LABELS = JSON.parse(
  readFileSync(new URL("../../../../i18n/locales/zh-CN/registers.json", import.meta.url), "utf8"),
) as Record<string, string>;

/** What the source label of the register at `path` (of part `part`) must say. */
function sourceLabelOf(path: string, part: string): RegExp {
  const [kind, index, ...rest] = path.split(".");
  const n = Number(index) + 1;
  const hm = part === "hour" ? "_时" : "_分";
  const tail = rest.join(".");
  if (kind === "hourly") return new RegExp(`^${index}H$`);
  if (kind === "soc")
    return new RegExp(
      `^${{ buy: "买", sell: "卖", use: "用" }[index as string]}电模式${tail === "soc" ? "SOC[上下]限" : "管理使能"}$`,
    );
  const item = kind === "quarters" ? `季度${n}` : `特殊日期${n}`;
  const label: Record<string, string> = {
    "months.start": "_起始",
    "months.end": "_结束",
    "weekdays.start": "星期_起始",
    "weekdays.end": "星期_结束",
    "inRange.start": `星期范围内起始时间${hm}`,
    "inRange.end": `星期范围内结束时间${hm}`,
    "outOfRange.start": `星期范围外起始时段${hm}`,
    "outOfRange.end": `星期范围外结束时间${hm}`,
    "inRange.modeInside": "星期范围内时间段内模式设置",
    "inRange.modeOutside": "星期范围内时间段外模式设置",
    "outOfRange.modeInside": "星期范围外时间段内模式设置",
    "outOfRange.modeOutside": "星期范围外时间段外模式设置",
    date: { year: "_年", month: "_月", day: "_日" }[part] ?? "?",
    "window.start": `起始时间${hm}`,
    "window.end": `结束时间${hm}`,
    "window.modeInside": "时间段内模式设置",
    "window.modeOutside": "时间段外模式设置",
  };
  return new RegExp(`^${item}${label[tail] ?? "?"}$`);
}
const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** Any value the catalogue accepts, for every register of the schedule. */
const registerValues = (product: ScheduleProduct) =>
  fc.record(
    Object.fromEntries(
      scheduleFields(product).map((f) => {
        const r = getRegister(f.id);
        if (!r) throw new Error(f.id);
        const codes = r.enum && isEnumName(r.enum) ? ENUMS[r.enum].values : null;
        return [f.id, codes ? fc.constantFrom(...codes) : fc.integer({ min: r.min, max: r.max })];
      }),
    ),
  );

const time = fc.integer({ min: 0, max: 23 * 60 + 59 }).map((m) => `${pad(Math.floor(m / 60))}:${pad(m % 60)}`);
const mode = fc.integer({ min: 0, max: 7 });
const window: fc.Arbitrary<ScheduleWindow> = fc.record({ start: time, end: time, modeInside: mode, modeOutside: mode });
const range = (max: number) => fc.record({ start: fc.integer({ min: 1, max }), end: fc.integer({ min: 1, max }) });
/** Any schedule the registers can hold (dates part by part, so 31 April too: the rules refuse it, not the mapping). */
const schedule: fc.Arbitrary<DeviceSchedule> = fc.record({
  quarters: fc.array(fc.record({ months: range(12), weekdays: range(7), inRange: window, outOfRange: window }), {
    minLength: 4,
    maxLength: 4,
  }),
  specialDates: fc.array(
    fc.record({
      date: fc
        .tuple(fc.integer({ min: 2000, max: 2099 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }))
        .map(([y, m, d]) => `${y}-${pad(m)}-${pad(d)}`),
      window,
    }),
    { minLength: 5, maxLength: 5 },
  ),
  hourly: fc.array(mode, { minLength: 24, maxLength: 24 }),
  soc: fc.record({
    buy: fc.record({ soc: fc.integer({ min: 0, max: 100 }), enabled: fc.boolean() }),
    sell: fc.record({ soc: fc.integer({ min: 0, max: 100 }), enabled: fc.boolean() }),
    use: fc.record({ soc: fc.integer({ min: 0, max: 100 }), enabled: fc.boolean() }),
  }),
});

describe.each(PRODUCTS)("the %s-phase schedule and its registers", (product) => {
  it("stores the schedule in exactly the settable registers of the catalogue's schedule page, each once", () => {
    const page = SCHEDULE_LAYOUT[product].page;
    const catalogue = REGISTERS.filter((r) => r.product === product && r.page === page && r.access === "readWrite").map(
      (r) => r.id,
    );
    const ids = scheduleRegisterIds(product);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...catalogue].sort());
    expect(scheduleFields(product).map((f) => f.id)).toEqual(ids);
  });

  it("puts each register where its label in the source language says it belongs", () => {
    for (const f of scheduleFields(product)) {
      expect(SOURCE_LABELS[f.id]?.replace(/\s/g, ""), `${f.id} → ${f.path} (${f.part})`).toMatch(sourceLabelOf(f.path, f.part));
    }
  });

  it("reads each register as the kind of value the catalogue says it holds", () => {
    const expected = { hour: "timeHour", minute: "timeMinute", year: "datePart", month: "datePart", day: "datePart" };
    for (const f of scheduleFields(product)) {
      const r = getRegister(f.id);
      if (f.part === "switch") expect(r?.enum, f.id).toBe("prohibitEnable");
      else if (f.part !== "value") expect(r?.type, f.id).toBe(expected[f.part]);
      else if (/mode/.test(f.path) || f.path.startsWith("hourly")) expect(r?.enum, f.id).toBe("systemModeFilter");
      else if (f.path.endsWith(".soc")) expect([r?.unit, r?.max], f.id).toEqual(["%", 100]);
      else expect([r?.type, r?.max], f.id).toEqual(["datePart", f.path.includes("months") ? 12 : 7]);
    }
  });

  it("registers → schedule → registers gives back every value exactly", () => {
    fc.assert(
      fc.property(registerValues(product), (values) => {
        const read = readSchedule(product, values);
        expect(read.ok).toBe(true);
        if (read.ok) expect(writeSchedule(product, read.schedule)).toEqual(values);
      }),
      { numRuns: 200 },
    );
  });

  it("schedule → registers → schedule gives back the schedule exactly, in values the catalogue accepts", () => {
    fc.assert(
      fc.property(schedule, (s) => {
        const values = writeSchedule(product, s);
        expect(readSchedule(product, values)).toEqual({ ok: true, schedule: s });
      }),
      { numRuns: 200 },
    );
  });

  it("names the registers it cannot read instead of guessing (missing, out of range, not an option)", () => {
    fc.assert(
      fc.property(registerValues(product), fc.nat(), (values, pick) => {
        const ids = scheduleRegisterIds(product);
        const [missing, wrong] = [ids[pick % ids.length] as string, ids[(pick + 7) % ids.length] as string];
        const broken: Record<string, number | undefined> = { ...values, [missing]: undefined, [wrong]: 1000 };
        expect(readSchedule(product, broken)).toEqual({
          ok: false,
          unreadable: ids.filter((id) => id === missing || id === wrong),
        });
      }),
      { numRuns: 50 },
    );
  });

  it("changes only the registers of what was edited", () => {
    fc.assert(
      fc.property(registerValues(product), fc.integer({ min: 0, max: 23 }), mode, (values, hour, next) => {
        const read = readSchedule(product, values);
        if (!read.ok) throw new Error("unreadable");
        const edited = structuredClone(read.schedule);
        edited.hourly[hour] = next;
        const hourId = `${SCHEDULE_LAYOUT[product].prefix}${SCHEDULE_LAYOUT[product].hourly + hour}`;
        expect(scheduleChanges(product, values, edited)).toEqual(values[hourId] === next ? {} : { [hourId]: next });
        expect(scheduleFieldOf(product, hourId)).toBe(`hourly.${hour}`);
      }),
      { numRuns: 50 },
    );
  });

  it("a special date that is not a day of the calendar is refused at its day", () => {
    const values = writeSchedule(product, fc.sample(schedule, { numRuns: 1, seed: 7 })[0] as DeviceSchedule);
    const read = readSchedule(product, values);
    if (!read.ok) throw new Error("unreadable");
    const edited = structuredClone(read.schedule);
    (edited.specialDates[2] as { date: string }).date = "2027-04-31";
    const changes = scheduleChanges(product, values, edited);
    const problems = checkSettingChange(product, values, changes).filter((p) => p.key === "schedules:notADate");
    expect(problems.map((p) => scheduleFieldOf(product, p.field))).toEqual(["specialDates.2.date"]);
    (edited.specialDates[2] as { date: string }).date = "2028-02-29";
    expect(
      checkSettingChange(product, values, scheduleChanges(product, values, edited)).filter((p) => p.key === "schedules:notADate"),
    ).toEqual([]);
  });
});

describe("which part of the schedule a device follows", () => {
  it.each(PRODUCTS)("is the %s-phase model's settable scheduleType register, on a page of its own", (product) => {
    const r = getRegister(SCHEDULE_LAYOUT[product].typeRegister);
    expect([r?.product, r?.access, r?.enum]).toEqual([product, "readWrite", "scheduleType"]);
    expect(r?.page).not.toBe(SCHEDULE_LAYOUT[product].page);
  });
});
