import type { FaultSeed } from "./fault-seed.ts";
import type { FaultLevel, FaultSystemType, FaultTrigger } from "./rules.ts";
import { BATTERY_FAULTS } from "./seed-battery.ts";
import { EQUIPMENT_FAULTS } from "./seed-equipment.ts";
import { GRID_FAULTS } from "./seed-grid.ts";
import { PV_INVERTER_FAULTS } from "./seed-pv-inverter.ts";

export type { FaultSeed } from "./fault-seed.ts";

/** Every fault code the console seeds, in code order. */
export const FAULT_SEED: readonly FaultSeed[] = [...GRID_FAULTS, ...PV_INVERTER_FAULTS, ...EQUIPMENT_FAULTS, ...BATTERY_FAULTS];

/** One code's seed by code. */
export const FAULT_SEED_BY_CODE: ReadonlyMap<number, FaultSeed> = new Map(FAULT_SEED.map((f) => [f.code, f]));

/** The codes a product's telemetry can raise, with their trigger (for detection and the simulator). */
export function faultTriggers(systemType: FaultSystemType): { code: number; level: FaultLevel; trigger: FaultTrigger }[] {
  return FAULT_SEED.flatMap((f) => {
    const trigger = f.triggers[systemType];
    return trigger ? [{ code: f.code, level: f.level, trigger }] : [];
  });
}

/** The alarm and status words a product's telemetry is read for (three phase: 2, single phase: 1). */
export const ALARM_WORD_REGISTERS: Readonly<Record<"single" | "three", readonly string[]>> = {
  single: [...new Set(faultTriggers(1).map((t) => t.trigger.key))],
  three: [...new Set(faultTriggers(2).map((t) => t.trigger.key))],
};
