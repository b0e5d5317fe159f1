import { problem, type RuleProblem } from "./rule-problem.ts";

/** A time of day "HH:mm" (00:00–23:59). */
export const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;
/** The last minute of the day; periods "cover the day" from 00:00 to 23:59 (spec §5). */
export const DAY_LAST_MINUTE = 23 * 60 + 59;

export interface TimePeriod {
  start: string | null | undefined;
  end: string | null | undefined;
}

/** Minutes since midnight of "HH:mm", or null when it is not a time of day. */
export function minutesOf(time: string | null | undefined): number | null {
  if (typeof time !== "string" || !TIME_OF_DAY.test(time)) return null;
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

export function timeOf(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

export interface PeriodRuleOptions {
  /** Field path prefix of the list, e.g. `buy` gives `buy.0.start`. */
  field: string;
  /** The periods together must run from 00:00 to 23:59 without gaps (mode periods, tariffs). */
  coverDay?: boolean;
  /** An empty list is refused ("at least one period"). */
  required?: boolean;
}

/**
 * The time-period rules of spec §5: each period has both times, ends after it starts (a period
 * that ends at 23:59 may run to the end of the day), periods do not overlap, and — where asked —
 * together cover the whole day. Periods meet when one starts where the previous ended (or the
 * minute after, as consoles write 00:00–11:59 then 12:00–23:59). Messages are the spec's.
 */
export function checkTimePeriods(periods: readonly TimePeriod[], options: PeriodRuleOptions): RuleProblem[] {
  const problems: RuleProblem[] = [];
  if (periods.length === 0) {
    if (options.required || options.coverDay) problems.push(problem(options.field, "schedules:periodsEmpty"));
    return problems;
  }
  const spans: { i: number; start: number; end: number }[] = [];
  periods.forEach((p, i) => {
    const start = minutesOf(p.start);
    const end = minutesOf(p.end);
    if (start === null || end === null) {
      problems.push(problem(`${options.field}.${i}.${start === null ? "start" : "end"}`, "schedules:periodMissingTime"));
      return;
    }
    if (start >= end) {
      problems.push(problem(`${options.field}.${i}.end`, "schedules:periodStartNotBeforeEnd"));
      return;
    }
    spans.push({ i, start, end });
  });
  if (problems.length > 0) return problems;
  const sorted = [...spans].sort((a, b) => a.start - b.start || a.end - b.end);
  for (let k = 1; k < sorted.length; k++) {
    const prev = sorted[k - 1] as (typeof sorted)[number];
    const cur = sorted[k] as (typeof sorted)[number];
    if (cur.start < prev.end) {
      problems.push(problem(`${options.field}.${cur.i}.start`, "schedules:periodsOverlap"));
      return problems;
    }
  }
  if (options.coverDay) {
    const first = sorted[0] as (typeof sorted)[number];
    const last = sorted[sorted.length - 1] as (typeof sorted)[number];
    let covered = first.start === 0 && last.end === DAY_LAST_MINUTE;
    for (let k = 1; k < sorted.length && covered; k++) {
      const gap = (sorted[k] as (typeof sorted)[number]).start - (sorted[k - 1] as (typeof sorted)[number]).end;
      if (gap > 1) covered = false;
    }
    if (!covered) problems.push(problem(options.field, "schedules:periodsNotWholeDay"));
  }
  return problems;
}
