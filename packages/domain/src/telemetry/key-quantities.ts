import type { RegisterId } from "../catalogue/catalogue.ts";

/**
 * The few quantities every curve, energy figure and fleet view needs, and where each product keeps
 * them. Ingest extracts them from every frame into typed columns (history, latest state) so that
 * curves and rollups never decode whole frames; everything else stays in the frame's register blocks.
 *
 * Sign conventions (ours, documented in docs/device-protocol.md): grid power > 0 imports from the
 * grid, < 0 exports; battery power > 0 discharges, < 0 charges. Reactive power is summed as the
 * registers give it: their sign is not documented, so we assume the orientation of their active
 * counterparts — grid var > 0 drawn from the grid (like an import), inverter var > 0 delivered by
 * the inverter (like its output power).
 */
export interface KeyQuantity {
  /** Column of the history and latest-state tables. */
  column: string;
  unit: "W" | "var" | "%" | "V" | "A" | "Hz" | "°C" | "kWh" | "";
  /** Registers whose engineering values are added up (converted to `unit`); empty: not reported. */
  three: readonly RegisterId[];
  single: readonly RegisterId[];
}

const q = (column: string, unit: KeyQuantity["unit"], three: RegisterId[], single: RegisterId[]): KeyQuantity => ({
  column,
  unit,
  three,
  single,
});

export const KEY_QUANTITIES = [
  q("pv_power", "W", ["TP_0X04_1061", "TP_0X04_1062"], ["pv1Power", "pv2Power"]),
  q("load_power", "W", ["TP_0X04_1234_1235"], ["realTimePowerOfLoad"]),
  q("battery_power", "W", ["TP_0X04_1073"], ["batteryPower"]),
  q("grid_power", "W", ["TP_0X04_1128_1129"], ["electricityMeterPower"]),
  q("generator_power", "W", ["TP_0X04_1271_1272"], ["HM_0X04_434"]),
  q("inverter_power", "W", ["TP_0X04_1170_1171"], ["invertedActivePowerA"]),
  // Single-phase: A is the inverter's reactive power; B and C carry the other phases where there are any.
  q("grid_reactive_power", "var", ["TP_0X04_1113_1114"], ["reactivePowerOfThePowerGrid"]),
  q(
    "inverter_reactive_power",
    "var",
    ["TP_0X04_1172_1173"],
    ["invertedReactivePowerA", "invertedReactivePowerB", "invertedReactivePowerC"],
  ),
  q("battery_soc", "%", ["TP_0X04_1074"], ["batteryTotalSoc"]),
  q("battery_soh", "%", ["TP_0X04_1075"], []),
  q("system_state", "", ["TP_0X04_1050"], ["systemRunStatus"]),
  q("system_mode", "", ["TP_0X04_1034"], ["currentModeOfTheSystem"]),
  q("battery_status", "", ["TP_0X04_1052"], ["batteryStatus"]),
  q("grid_voltage", "V", ["TP_0X04_1082"], ["gridVoltageA"]),
  q("grid_frequency", "Hz", ["TP_0X04_1088"], ["gridFrequencyA"]),
  q("battery_voltage", "V", ["TP_0X04_1071"], ["batteryVoltage"]),
  q("battery_current", "A", ["TP_0X04_1072"], ["batteryCurrent"]),
  q("inverter_temperature", "°C", ["TP_0X04_1286"], ["inverterTemperature"]),
  q("battery_temperature", "°C", ["TP_0X04_4627"], []),
  q("pv_today", "kWh", ["TP_0X04_31_32"], ["dailyPowerGeneration"]),
  q("pv_total", "kWh", ["TP_0X04_33_34"], ["totalPowerGeneration"]),
  q("load_today", "kWh", ["TP_0X04_35_36"], ["dailyElectricityConsumption"]),
  q("load_total", "kWh", ["TP_0X04_37_38"], ["accumulatedElectricityConsumption"]),
  q("sell_today", "kWh", ["TP_0X04_39_40"], ["dailyGridConnectionVolume"]),
  q("sell_total", "kWh", ["TP_0X04_41_42"], ["accumulatedGridConnectionQuantity"]),
  q("buy_today", "kWh", ["TP_0X04_43_44"], ["dailyElectricityPurchase"]),
  q("buy_total", "kWh", ["TP_0X04_45_46"], ["accumulatedPurchasingPower"]),
  q("charge_today", "kWh", ["TP_0X04_47_48"], ["dailyChargingCapacity"]),
  q("charge_total", "kWh", ["TP_0X04_49_50"], ["accumulatedChargingCapacity"]),
  q("discharge_today", "kWh", ["TP_0X04_51_52"], ["dailyDischargeCapacity"]),
  q("discharge_total", "kWh", ["TP_0X04_53_54"], ["accumulatedDischargeCapacity"]),
] as const;

export type KeyQuantityColumn = (typeof KEY_QUANTITIES)[number]["column"];

/**
 * The device's energy counters behind the daily rollup: each has a counter that restarts at the
 * device's local midnight and a lifetime total (both kWh).
 */
export const ENERGY_COUNTERS = ["pv", "load", "sell", "buy", "charge", "discharge"] as const;
export type EnergyCounter = (typeof ENERGY_COUNTERS)[number];

/** Factor from a register's unit to a key quantity's unit (W from kW, kWh from Wh, else 1). */
export function unitFactor(from: string, to: string): number {
  if (from === to || to === "") return 1;
  if (from === "kW" && to === "W") return 1000;
  if (from === "Wh" && to === "kWh") return 0.001;
  if (from === "mV" && to === "V") return 0.001;
  return 1;
}
