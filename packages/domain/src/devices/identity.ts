import { DEVICE_MODELS } from "./models.ts";

/**
 * What a device says it is — its model, rated power, country code and battery chemistry — and how
 * that meets what staff typed when they registered it.
 *
 * Three-phase inverters report model name, output rated power and current country code in every
 * reading (input registers, pages 46 and 42); single-phase inverters report rated power and country
 * code (page 7) but no model name. The battery chemistry is a setting on both (three-phase page 48,
 * single-phase page 8), which the console learns from page answers and acknowledged writes; the
 * country code setting the same way.
 */
export const IDENTITY_REGISTERS = {
  three: { model: "TP_0X04_32780_32787", ratedPower: "TP_0X04_1037", countryCode: "TP_0X04_1031" },
  single: { model: null, ratedPower: "ratedPower", countryCode: "countryCode" },
} as const satisfies Record<"single" | "three", { model: string | null; ratedPower: string; countryCode: string }>;

/** The settings that carry identity: what a page answer or an acknowledged write tells of it. */
export const IDENTITY_SETTINGS = {
  batteryChemistry: ["TP_0X03_1047", "batteryTypeSet"],
  countryCode: ["TP_0X03_1024", "countryCode"],
} as const;

export interface ReportedIdentity {
  model: string | null;
  /** kW. */
  ratedPower: number | null;
  countryCode: number | null;
}

/**
 * The identity a reading reports, from its values (engineering units; null or absent where the
 * reading lacks one or it failed validation). A single-phase inverter's model is the catalogue's
 * single-phase model of the rated power it reports, when exactly one has it.
 */
export function identityOfReading(
  product: "single" | "three",
  value: (register: string) => number | string | null | undefined,
): ReportedIdentity {
  const at = IDENTITY_REGISTERS[product];
  const power = value(at.ratedPower);
  const ratedPower = typeof power === "number" && power > 0 ? power : null;
  const country = value(at.countryCode);
  const countryCode = typeof country === "number" ? country : null;
  const name = at.model ? value(at.model) : null;
  let model = typeof name === "string" && name.trim() !== "" ? name.trim().slice(0, 32) : null;
  if (model === null && product === "single" && ratedPower !== null) {
    const matches = DEVICE_MODELS.filter((m) => m.phaseType === 1 && m.ratedPowerKw === ratedPower);
    model = matches.length === 1 ? (matches[0]?.code ?? null) : null;
  }
  return { model, ratedPower, countryCode };
}

/**
 * Which value the console shows where staff typed one and the device reports another: the
 * device's. It reports what it is (its nameplate) and how it is set up to behave (its country code
 * and battery settings, which staff change through the device's settings, not the registration);
 * a registration is typed once and may be mistaken. What staff typed is kept and shown as such
 * where the device reports nothing, and beside the device's value where the two differ.
 */
export function shownIdentityValue<T>(registered: T | null, reported: T | null): { value: T | null; source: IdentitySource } {
  if (reported !== null) return { value: reported, source: "device" };
  if (registered !== null) return { value: registered, source: "registration" };
  return { value: null, source: "none" };
}

export type IdentitySource = "device" | "registration" | "none";
