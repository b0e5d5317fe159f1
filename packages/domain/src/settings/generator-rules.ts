import { problem, type RuleProblem } from "./rule-problem.ts";
import { checkTimePeriods, type TimePeriod } from "./time-periods.ts";

export const GENERATOR_CONTROL_MODES = ["manual", "soc"] as const;
/**
 * Where the generator's output goes (the original console's output-mode pick list, whose values the
 * reference does not give): the loads only, the loads and the battery, or the battery first.
 */
export const GENERATOR_OUTPUT_MODES = [0, 1, 2] as const;
/** Rated power choices, kW (the original console's 10–50). */
export const GENERATOR_RATED_POWER_KW = { min: 10, max: 50 } as const;
export type GeneratorControlMode = (typeof GENERATOR_CONTROL_MODES)[number];

export interface GeneratorInput {
  /** Switch the generator on (true) or off. */
  on: boolean;
  /** Rated power, kW (chosen from the model's list). */
  ratedPowerKw: number | null | undefined;
  /** Share of the rated power the system may draw, 0–100 %. */
  availablePct: number | null | undefined;
  controlMode: GeneratorControlMode;
  /** SOC control: start below the lower bound, stop at the upper one (%). */
  socLower?: number | null | undefined;
  socUpper?: number | null | undefined;
  /** Time slots in which the generator may run. */
  slots: readonly TimePeriod[];
  /** Output mode code (generatorOutputMode) and the battery charging power from the generator (kW). */
  outputMode: number | null | undefined;
  chargePowerKw: number | null | undefined;
}

const present = (v: number | null | undefined): v is number => typeof v === "number" && Number.isFinite(v);

/**
 * The generator rules of spec §5: rated power chosen, battery charging power given, slots with both
 * times, ending after they start and without conflicts; in SOC control both bounds, upper above
 * lower; and it cannot be switched on while the grid is connected (`gridConnected` from the
 * device's latest reading; unknown counts as not connected).
 */
export function checkGenerator(input: GeneratorInput, state: { gridConnected: boolean }): RuleProblem[] {
  const problems: RuleProblem[] = [];
  if (!present(input.ratedPowerKw)) problems.push(problem("ratedPowerKw", "generator:ratedPowerRequired"));
  else if (input.ratedPowerKw < GENERATOR_RATED_POWER_KW.min || input.ratedPowerKw > GENERATOR_RATED_POWER_KW.max) {
    problems.push(problem("ratedPowerKw", "generator:ratedPowerRange", { ...GENERATOR_RATED_POWER_KW }));
  }
  if (!present(input.availablePct) || input.availablePct < 0 || input.availablePct > 100) {
    problems.push(problem("availablePct", "generator:availablePctRange"));
  }
  if (!present(input.chargePowerKw) || input.chargePowerKw < 0)
    problems.push(problem("chargePowerKw", "generator:chargePowerRequired"));
  if (!present(input.outputMode) || !(GENERATOR_OUTPUT_MODES as readonly number[]).includes(input.outputMode)) {
    problems.push(problem("outputMode", "generator:outputModeRequired"));
  }
  if (input.controlMode === "soc") {
    if (!present(input.socLower)) problems.push(problem("socLower", "generator:socBoundsRequired"));
    if (!present(input.socUpper)) problems.push(problem("socUpper", "generator:socBoundsRequired"));
    if (present(input.socLower) && present(input.socUpper) && input.socUpper <= input.socLower) {
      problems.push(problem("socUpper", "generator:socUpperAboveLower"));
    }
  }
  for (const p of checkTimePeriods(input.slots, { field: "slots" })) {
    // The generator page names overlapping slots "conflicting" (spec §5).
    problems.push(p.key === "schedules:periodsOverlap" ? { ...p, key: "generator:slotsConflict" } : p);
  }
  if (input.on && state.gridConnected) problems.push(problem("on", "generator:gridConnected"));
  return problems;
}
