import type { Register } from "../catalogue/types.ts";

/**
 * Settings an inverter takes only in standby or shut down (spec §4): what changes how it connects
 * to the grid and the battery — country code, grid protection limits and times, battery type,
 * wiring, rated output, PV and CT connection, and the factory reset. Devices refuse them while
 * running (`needsStandby`); the console can say so before asking.
 */
const STANDBY_ONLY_IDS = new Set<string>([
  "TP_0X03_4",
  "TP_0X03_12",
  "TP_0X03_1024",
  "TP_0X03_1044",
  "TP_0X03_1045",
  "TP_0X03_1046",
  "TP_0X03_1047",
  "TP_0X03_1056",
  "TP_0X03_1100",
  "countryCode",
  "batteryTypeSet",
  "pvConnectionSet",
]);

export function requiresStandby(register: Pick<Register, "id" | "group">): boolean {
  return register.group === "gridProtection" || STANDBY_ONLY_IDS.has(register.id);
}
