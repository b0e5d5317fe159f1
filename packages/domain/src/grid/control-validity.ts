import type { ControlBase } from "./control-schedule.ts";

/**
 * The fields of an event's DERControlBase that make it invalid (IEEE 2030.5 response 253): the
 * schema lets them through, but no site can follow them as said. An event with any is answered
 * invalid instead of received and never enters the site's schedule.
 * - no mode at all: nothing to follow;
 * - a site or DER limit below zero (export, import, generation, load): a limit is a magnitude;
 * - opModMaxLimW outside 0–100 % (hundredths of a percent);
 * - opModFixedW outside ±100 % of the rated power.
 * Returns the empty list for a valid control.
 */
export function invalidControlFields(base: ControlBase): (keyof ControlBase | "DERControlBase")[] {
  const set = Object.entries(base).filter(([, value]) => value !== undefined && value !== null);
  if (set.length === 0) return ["DERControlBase"];
  const invalid: (keyof ControlBase)[] = [];
  for (const field of ["opModExpLimW", "opModImpLimW", "opModGenLimW", "opModLoadLimW"] as const) {
    const limit = base[field];
    if (limit && limit.value < 0) invalid.push(field);
  }
  if (base.opModMaxLimW !== undefined && (base.opModMaxLimW < 0 || base.opModMaxLimW > 10_000)) invalid.push("opModMaxLimW");
  if (base.opModFixedW !== undefined && Math.abs(base.opModFixedW) > 10_000) invalid.push("opModFixedW");
  return invalid;
}
