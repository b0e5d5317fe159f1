import { problem, type RuleProblem } from "./rule-problem.ts";
import { checkTimePeriods, type TimePeriod } from "./time-periods.ts";

export interface ModeInput {
  code: string;
  name: string;
  description: string;
  chargeSoc: number | null | undefined;
  sellSoc: number | null | undefined;
  dischargeOffSoc: number | null | undefined;
  periods: readonly TimePeriod[];
}

/**
 * The mode form of spec §5: encoding, name, description and the three SOCs (0–100 %) are
 * required; the mode's periods cover the whole day without overlaps.
 */
export function checkMode(input: ModeInput): RuleProblem[] {
  const problems: RuleProblem[] = [];
  for (const field of ["code", "name", "description"] as const) {
    if (input[field].trim() === "") problems.push(problem(field, "validation:required"));
  }
  for (const field of ["chargeSoc", "sellSoc", "dischargeOffSoc"] as const) {
    const v = input[field];
    if (typeof v !== "number" || !Number.isFinite(v)) problems.push(problem(field, "validation:required"));
    else if (v < 0 || v > 100) problems.push(problem(field, "schedules:socRange"));
  }
  problems.push(...checkTimePeriods(input.periods, { field: "periods", coverDay: true }));
  return problems;
}
