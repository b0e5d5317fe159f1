import type { PlantSpec, Product } from "./plant.ts";
import { seededRandom } from "./random.ts";
import { SITES } from "./sites.ts";

/** A device of a fleet file: its credentials and its place in the fleet (which decides its plant). */
export interface FleetDevice {
  sn: string;
  secret: string;
  index: number;
}

/**
 * The installation behind fleet device `index` for a seed: site (country and time zone), single-
 * or three-phase (about two in five are three-phase), inverter size, PV array, battery, household
 * and, for some, a generator. Deterministic, so the server registering the fleet and the
 * simulator running it agree.
 */
export function plantSpecOf(sn: string, index: number, seed: number): PlantSpec {
  const random = seededRandom(seed * 100_003 + index * 7919 + 1);
  const product: Product = index % 5 === 1 || index % 5 === 3 ? "three" : "single";
  const site = SITES[(index + seed) % SITES.length] as (typeof SITES)[number];
  const ratedW =
    product === "three" ? ([10_000, 12_000, 15_000, 20_000][Math.floor(random() * 4)] ?? 10_000) : random() < 0.5 ? 5000 : 6000;
  return {
    sn,
    product,
    site,
    ratedW,
    pvKwp: Math.round((ratedW / 1000) * (1.1 + random() * 0.3) * 10) / 10,
    batteryModules: product === "three" ? 6 + Math.floor(random() * 5) : 2 + Math.floor(random() * 3),
    cellAh: 50,
    generatorW: random() < 0.15 ? (product === "three" ? 10_000 : 5000) : null,
    household: { size: product === "three" ? 1.8 + random() * 0.7 : 0.8 + random() * 0.5, baseW: 250 + random() * 150 },
    seed: seed * 1_000_003 + index,
  };
}

/**
 * What the console needs to register a fleet device: its catalogue model (which fixes the phase
 * type, 1 single or 2 three, and the rated power), time zone and country code.
 */
export function registrationOf(
  index: number,
  seed: number,
): { model: string; phaseType: 1 | 2; timeZone: string; countryCode: number } {
  const spec = plantSpecOf("", index, seed);
  const kw = spec.ratedW / 1000;
  return {
    model: spec.product === "three" ? `H3-${kw}K` : `H${kw}K`,
    phaseType: spec.product === "three" ? 2 : 1,
    timeZone: spec.site.timeZone,
    countryCode: spec.site.countryCode,
  };
}
