import { problem, type RuleProblem } from "./rule-problem.ts";
import type { SettingValues } from "./setting-value-rules.ts";

/**
 * Where the scheduled settings sit (three-phase page 49, single-phase page 11): four quarters of
 * 16 registers (start month, end month, first and last weekday, the in-range period's start and
 * end hour and minute, the out-of-range period's, then four mode codes), five special dates of 9
 * (year, month, day, start hour, minute, end hour, minute, two modes), 24 hourly modes and the
 * buy/sell/use SOC limits with their switches.
 */
export const SCHEDULE_LAYOUT = {
  three: {
    prefix: "TP_0X03_",
    quarters: [76, 92, 108, 124],
    specialDates: [140, 149, 158, 167, 176],
    hourly: 185,
    socLimits: { buy: [209, 210], sell: [211, 212], use: [213, 214] },
  },
  single: {
    prefix: "HM6_0X03_",
    quarters: [128, 144, 160, 176],
    specialDates: [80, 89, 98, 107, 116],
    hourly: 196,
    socLimits: { buy: [450, 451], sell: [452, 453], use: [454, 455] },
  },
} as const;

export const QUARTER_OFFSETS = {
  startMonth: 0,
  endMonth: 1,
  weekStart: 2,
  weekEnd: 3,
  inStartHour: 4,
  inStartMinute: 5,
  inEndHour: 6,
  inEndMinute: 7,
  outStartHour: 8,
  outStartMinute: 9,
  outEndHour: 10,
  outEndMinute: 11,
  inModeInternal: 12,
  inModeExternal: 13,
  outModeInternal: 14,
  outModeExternal: 15,
} as const;
export const SPECIAL_DATE_OFFSETS = {
  year: 0,
  month: 1,
  day: 2,
  startHour: 3,
  startMinute: 4,
  endHour: 5,
  endMinute: 6,
} as const;

/** The register ids of one item (quarter or special date). */
function idsOf(prefix: string, base: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${base + i}`);
}

/**
 * Spec §5 over the schedule: each quarter's months and weekdays run forward (start not after end)
 * and its in-range and out-of-range periods end after they start; the quarters' month ranges do
 * not overlap ("The time period range cannot overlap"); each special date's period ends after it
 * starts. A problem is reported only for items the change touches, on the touched register.
 */
export function checkSchedule(product: "single" | "three", values: SettingValues, changed: ReadonlySet<string>): RuleProblem[] {
  const layout = SCHEDULE_LAYOUT[product];
  const n = (id: string) => {
    const v = values[id];
    return typeof v === "number" && Number.isFinite(v) ? v : null;
  };
  const problems: RuleProblem[] = [];
  const firstTouched = (ids: string[]) => ids.find((id) => changed.has(id));
  const minutes = (h: string, m: string) => {
    const hv = n(h);
    const mv = n(m);
    return hv === null || mv === null ? null : hv * 60 + mv;
  };

  const quarters = layout.quarters.map((base) => {
    const ids = idsOf(layout.prefix, base, 16);
    const at = (o: number) => ids[o] as string;
    return { ids, at, start: n(at(QUARTER_OFFSETS.startMonth)), end: n(at(QUARTER_OFFSETS.endMonth)) };
  });
  for (const q of quarters) {
    const touched = firstTouched(q.ids);
    if (!touched) continue;
    if (q.start !== null && q.end !== null && q.start > q.end) {
      problems.push(problem(q.at(QUARTER_OFFSETS.endMonth), "schedules:endMonthBeforeStart"));
    }
    const ws = n(q.at(QUARTER_OFFSETS.weekStart));
    const we = n(q.at(QUARTER_OFFSETS.weekEnd));
    if (ws !== null && we !== null && ws > we)
      problems.push(problem(q.at(QUARTER_OFFSETS.weekEnd), "schedules:weekEndBeforeStart"));
    for (const [sh, sm, eh, em] of [
      [QUARTER_OFFSETS.inStartHour, QUARTER_OFFSETS.inStartMinute, QUARTER_OFFSETS.inEndHour, QUARTER_OFFSETS.inEndMinute],
      [QUARTER_OFFSETS.outStartHour, QUARTER_OFFSETS.outStartMinute, QUARTER_OFFSETS.outEndHour, QUARTER_OFFSETS.outEndMinute],
    ] as const) {
      const s = minutes(q.at(sh), q.at(sm));
      const e = minutes(q.at(eh), q.at(em));
      if (s !== null && e !== null && s >= e) problems.push(problem(q.at(eh), "schedules:periodStartNotBeforeEnd"));
    }
  }
  // Quarters' month ranges: two quarters cannot claim the same month.
  for (let a = 0; a < quarters.length; a++) {
    for (let b = a + 1; b < quarters.length; b++) {
      const qa = quarters[a] as (typeof quarters)[number];
      const qb = quarters[b] as (typeof quarters)[number];
      if (qa.start === null || qa.end === null || qb.start === null || qb.end === null) continue;
      if (qa.start > qa.end || qb.start > qb.end) continue;
      const touched = firstTouched(qb.ids) ?? firstTouched(qa.ids);
      if (!touched) continue;
      if (qa.start <= qb.end && qb.start <= qa.end) {
        const field = firstTouched(qb.ids) ? qb.at(QUARTER_OFFSETS.startMonth) : qa.at(QUARTER_OFFSETS.startMonth);
        problems.push(problem(field, "schedules:rangesOverlap", { quarter: b + 1 }));
      }
    }
  }
  for (const base of layout.specialDates) {
    const ids = idsOf(layout.prefix, base, 9);
    if (!firstTouched(ids)) continue;
    const at = (o: number) => ids[o] as string;
    const s = minutes(at(SPECIAL_DATE_OFFSETS.startHour), at(SPECIAL_DATE_OFFSETS.startMinute));
    const e = minutes(at(SPECIAL_DATE_OFFSETS.endHour), at(SPECIAL_DATE_OFFSETS.endMinute));
    if (s !== null && e !== null && s >= e)
      problems.push(problem(at(SPECIAL_DATE_OFFSETS.endHour), "schedules:periodStartNotBeforeEnd"));
  }
  return problems;
}
