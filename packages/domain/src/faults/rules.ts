import type { Locale } from "../locales.ts";

/** Fault levels (spec §4): 1 and 2 are warnings, 3 is a fault (the device shows status 3, error). */
export const FAULT_LEVELS = [1, 2, 3] as const;
export type FaultLevel = (typeof FAULT_LEVELS)[number];
export const ERROR_LEVEL: FaultLevel = 3;

/** System type of a fault code: 1 single phase, 2 three phase (the device's phase type). */
export const FAULT_SYSTEM_TYPES = [1, 2] as const;
export type FaultSystemType = (typeof FAULT_SYSTEM_TYPES)[number];

export const FAULT_CATEGORIES = ["grid", "pv", "battery", "inverter", "generator", "meter", "communication"] as const;
export type FaultCategory = (typeof FAULT_CATEGORIES)[number];

/** The texts of one fault code in one language. */
export interface FaultText {
  info: string;
  causes: string;
  remedy: string;
}
export type FaultTexts = Record<Locale, FaultText>;

/**
 * What raises a code in a device's telemetry: a bit of an alarm word (set = condition present),
 * or a status flag whose value 0 means the condition (communication flags: 1 normal, 0 abnormal).
 */
export type FaultTrigger = { key: string; bit: number } | { key: string; zero: true };

/** Field limits of the catalogue and the alarm control (one source for server and console). */
export const FAULT_LIMITS = {
  code: { min: 1, max: 65535 },
  info: 200,
  causes: 1000,
  remedy: 1000,
  controlName: 100,
  controlDescription: 500,
  sort: { min: 0, max: 9999 },
} as const;

/** Alarm life cycle defaults (the server's environment may change them). */
export const ALARM_DEFAULTS = {
  /** A cleared condition must stay clear this long before the alarm closes (flap hysteresis). */
  clearHoldS: 60,
  /** This many devices opening the same code within the window is a storm: one summary notice. */
  stormDevices: 10,
  stormWindowS: 60,
} as const;
