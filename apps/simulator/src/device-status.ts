import type { PlantState } from "./plant.ts";

/** System run state (enumeration `systemStateFilter`, 0–10) from what the plant is doing. */
export function systemState(s: PlantState, running: boolean): number {
  if (!running) return 8;
  const pv = s.pvW > 50;
  const battery = Math.abs(s.batteryW) > 50;
  if (s.effectiveMode === 7) return pv && battery ? 4 : pv ? 1 : battery ? 3 : 1;
  if (pv && battery) return 7;
  if (pv) return 6;
  if (battery) return 5;
  return 2;
}

/** Battery state (`batteryStatusFilter`, 0–7): constant current, constant voltage, float, full, discharge. */
export function batteryState(s: PlantState): number {
  if (s.batteryW < -50) return s.soc < 90 ? 1 : 2;
  if (s.batteryW > 50) return 5;
  return s.soc >= 99.5 ? 4 : 0;
}

/** Grid state (`GridStateFilter`): 1 off grid, 2 selling, 3 buying. */
export function gridState(s: PlantState): number {
  if (s.effectiveMode === 7) return 1;
  return s.gridW < 0 ? 2 : 3;
}

/** Inverter state (`invertingStateFilter`): 1 inverting (AC out), 2 rectifying (charging from AC). */
export function inverterState(s: PlantState): number {
  const acOut = s.pvW + s.batteryW;
  return acOut >= 0 ? 1 : 2;
}

/**
 * Reactive power (var): the load draws it at a 0.98 power factor, the inverter delivers some (0.99
 * of its AC output) and the grid the rest; off grid the inverter delivers all of it.
 */
export function reactivePower(s: PlantState): { gridVar: number; inverterVar: number } {
  const loadVar = Math.round(s.loadW * 0.203);
  if (s.effectiveMode === 7) return { gridVar: 0, inverterVar: loadVar };
  const inverterVar = Math.round(Math.abs(s.pvW + s.batteryW) * 0.1425);
  return { gridVar: loadVar - inverterVar, inverterVar };
}

/** Battery work state (`TP_0X04_30Filter`): 0 both allowed, 2 charge only, 3 discharge only. */
export function batteryWork(s: PlantState, socMin: number): number {
  if (s.soc <= socMin) return 2;
  if (s.soc >= 99.9) return 3;
  return 0;
}

/** Alarm words and the upgrade that a device carries next to its physics. */
export interface DeviceCondition {
  running: boolean;
  /** Alarm and state words by register id (bit sets). */
  alarmWords: Map<string, number>;
  /** Fault status: 0 none, 1 alarm, 2 fault. */
  faultLevel: number;
  upgradePercent: number;
  /** Firmware version × 100 (shown as major.minor). */
  firmware: number;
  /** Self-check (selfCheckFilter): 0 none, 1 checking, 2 failed, 3 done; and when a running one ends. */
  selfCheck: number;
  selfCheckUntil: number;
}

export const kw = (w: number) => Math.round(w / 10) / 100;
export const r1 = (v: number) => Math.round(v * 10) / 10;
