import { problem, type RuleProblem } from "../rule-problem.ts";
import type { SettingValues } from "../setting-values.ts";
import {
  itemRegisters,
  QUARTER_OFFSETS,
  QUARTER_REGISTERS,
  SCHEDULE_LAYOUT,
  type ScheduleProduct,
  SPECIAL_DATE_OFFSETS,
  SPECIAL_DATE_REGISTERS,
} from "./layout.ts";

/**
 * Spec §5 over the schedule: each quarter's months and weekdays run forward (start not after end)
 * and its in-range and out-of-range periods end after they start; the quarters' month ranges do
 * not overlap ("The time period range cannot overlap"); each special date is a day of the
 * calendar and its period ends after it starts. A problem is reported only for items the change touches, on the touched register.
 */
export function checkSchedule(product: ScheduleProduct, values: SettingValues, changed: ReadonlySet<string>): RuleProblem[] {
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
    const ids = itemRegisters(product, base, QUARTER_REGISTERS);
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
    const ids = itemRegisters(product, base, SPECIAL_DATE_REGISTERS);
    if (!firstTouched(ids)) continue;
    const at = (o: number) => ids[o] as string;
    const [y, m, d] = [n(at(SPECIAL_DATE_OFFSETS.year)), n(at(SPECIAL_DATE_OFFSETS.month)), n(at(SPECIAL_DATE_OFFSETS.day))];
    // Each part may be in range (day 31) while the date is not one (31 April).
    if (y !== null && m !== null && d !== null && !isCalendarDate(y, m, d))
      problems.push(problem(at(SPECIAL_DATE_OFFSETS.day), "schedules:notADate"));
    const s = minutes(at(SPECIAL_DATE_OFFSETS.startHour), at(SPECIAL_DATE_OFFSETS.startMinute));
    const e = minutes(at(SPECIAL_DATE_OFFSETS.endHour), at(SPECIAL_DATE_OFFSETS.endMinute));
    if (s !== null && e !== null && s >= e)
      problems.push(problem(at(SPECIAL_DATE_OFFSETS.endHour), "schedules:periodStartNotBeforeEnd"));
  }
  return problems;
}

/** Whether year, month and day name a day of the calendar (no 30 February). */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
