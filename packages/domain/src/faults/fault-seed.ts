import type { Locale } from "../locales.ts";
import type { FaultCategory, FaultLevel, FaultSystemType, FaultText, FaultTexts, FaultTrigger } from "./rules.ts";

/**
 * The fault codes of the inverters and batteries the console serves (and the simulator raises),
 * with what raises each in telemetry and the texts an installer acts on. Seeded into every tenant's
 * fault catalogue once; administrators edit the stored copy afterwards.
 */
export interface FaultSeed {
  code: number;
  level: FaultLevel;
  category: FaultCategory;
  /** Per system type (1 single, 2 three phase): what raises the code in that product's telemetry. */
  triggers: Partial<Record<FaultSystemType, FaultTrigger>>;
  texts: FaultTexts;
}

type Row = [info: string, causes: string, remedy: string];
/** A code's information, causes and remedy in the five languages (zh-CN, en-US, it, es, ja). */
export const t = (zh: Row, en: Row, it: Row, es: Row, ja: Row): FaultTexts => {
  const of = ([info, causes, remedy]: Row): FaultText => ({ info, causes, remedy });
  return { "zh-CN": of(zh), "en-US": of(en), it: of(it), es: of(es), ja: of(ja) } satisfies Record<Locale, FaultText>;
};

/** The alarm and status words the codes are read from. */
export const GRID_1 = "powerGridStatus";
export const TP_GRID = "TP_0X04_5658";
export const SELF_CHECK_1 = "selfInspectionStatus";
export const TP_DC_INV = "TP_0X04_5659";
export const TP_GEN_METER = "TP_0X04_5660";
export const HEATING_1 = "batteryChargingAndDischargingHeatingEnableState";
