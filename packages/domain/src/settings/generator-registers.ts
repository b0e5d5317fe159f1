import type { Register } from "../catalogue/types.ts";
import type { GeneratorInput } from "./generator-rules.ts";

/** "HH:mm" → [hour, minute]; null for anything else. */
function hourMinute(time: string | null | undefined): [number, number] | null {
  const m = /^(\d{2}):(\d{2})$/.exec(time ?? "");
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/**
 * The generator page written to the device's registers (catalogue, single-phase page 8 "alternator"
 * group). Single-phase models hold the whole page:
 * - on/off: generator function enable (PROTOCOL_ADDR_409) and the control mode HM_0X03_437 —
 *   manual control forces start (1) or stop (2); SOC control leaves it to the device (0 auto) with
 *   the start/stop SOC bounds (PROTOCOL_ADDR_411 / _413);
 * - rated power (PROTOCOL_ADDR_415, kW), available share (HM_0X03_438, %);
 * - the device's one timer (HM_0X03_480–484): enabled with the earliest slot when there are slots;
 * - output mode 0 loads only / 1 loads and battery / 2 battery first: battery charge enable
 *   (PROTOCOL_ADDR_416) and load supply enable (PROTOCOL_ADDR_417);
 * - battery charging power as the rectifier's share of the rated power (PROTOCOL_ADDR_419, %).
 * Three-phase models have only the generator port's interface mode (TP_0X03_1101, 1 = generator).
 */
export function generatorRegisterValues(product: Register["product"], input: GeneratorInput): Record<string, number> {
  if (product === "three") return { TP_0X03_1101: 1 };
  const soc = input.controlMode === "soc";
  const rated = input.ratedPowerKw ?? 0;
  const values: Record<string, number> = {
    PROTOCOL_ADDR_409: input.on ? 1 : 0,
    HM_0X03_437: soc ? 0 : input.on ? 1 : 2,
    PROTOCOL_ADDR_415: rated,
    HM_0X03_438: input.availablePct ?? 0,
    PROTOCOL_ADDR_416: input.outputMode === 0 ? 0 : 1,
    PROTOCOL_ADDR_417: input.outputMode === 2 ? 0 : 1,
    PROTOCOL_ADDR_419: rated > 0 ? Math.min(100, Math.round(((input.chargePowerKw ?? 0) / rated) * 100)) : 0,
  };
  if (soc && typeof input.socLower === "number" && typeof input.socUpper === "number") {
    values.PROTOCOL_ADDR_411 = input.socLower;
    values.PROTOCOL_ADDR_413 = input.socUpper;
  }
  const first = [...input.slots].sort((a, b) => (a.start ?? "").localeCompare(b.start ?? ""))[0];
  const start = hourMinute(first?.start);
  const end = hourMinute(first?.end);
  values.HM_0X03_480 = start && end ? 1 : 0;
  if (start && end) {
    [values.HM_0X03_481, values.HM_0X03_482] = start;
    [values.HM_0X03_483, values.HM_0X03_484] = end;
  }
  return values;
}

/** Where a model starts its self-check and what it reports about it. */
export const SELF_CHECK_REGISTERS = {
  /** Writing 1 to the self-test item starts it; the state (selfCheckFilter 0–3) is in every reading. */
  three: { start: "TP_0X03_58", state: "TP_0X04_1294" },
  /**
   * Writing 1 to "self check enable" starts it; the device clears it when the check ends, and the
   * self-inspection word of its readings holds a bit per failed item.
   */
  single: { start: "selfCheckEnable", result: "selfInspectionStatus" },
} as const;
