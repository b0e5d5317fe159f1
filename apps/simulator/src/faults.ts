import type { AlarmEvent } from "@ess/contracts";
import type { Product } from "./plant.ts";

/** An alarm the simulator can raise: a bit of an alarm or state word, with the device's fault code. */
export interface FaultDefinition {
  key: string;
  bit: number;
  code: number;
  level: 1 | 2 | 3;
  /** How long it lasts, minutes (drawn between the two). */
  minutes: readonly [number, number];
}

const THREE_PHASE: readonly FaultDefinition[] = [
  { key: "TP_0X04_4639", bit: 0, code: 2001, level: 2, minutes: [5, 40] }, // cell overvoltage alarm
  { key: "TP_0X04_4639", bit: 3, code: 2004, level: 1, minutes: [10, 90] }, // cell temperature alarm
  { key: "TP_0X04_4640", bit: 1, code: 2102, level: 3, minutes: [2, 15] }, // primary protection: overcurrent
  { key: "TP_0X04_4101", bit: 2, code: 3003, level: 2, minutes: [5, 30] }, // BCU alarm: insulation
  { key: "TP_0X04_4643", bit: 0, code: 2301, level: 3, minutes: [1, 10] }, // system lock event
];

const SINGLE_PHASE: readonly FaultDefinition[] = [
  { key: "powerGridStatus", bit: 1, code: 1002, level: 2, minutes: [1, 10] }, // grid overvoltage
  { key: "powerGridStatus", bit: 3, code: 1004, level: 2, minutes: [1, 10] }, // grid underfrequency
  { key: "selfInspectionStatus", bit: 2, code: 1103, level: 1, minutes: [10, 60] },
  { key: "batteryChargingAndDischargingHeatingEnableState", bit: 0, code: 1201, level: 1, minutes: [20, 120] },
];

interface Active {
  def: FaultDefinition;
  until: number;
}

/**
 * Raises alarms at random, `perDay` on average per device, and clears each after its duration:
 * the bits show in the alarm words of every frame, and each change is an alarm event.
 */
export class FaultInjector {
  private readonly defs: readonly FaultDefinition[];
  private readonly active: Active[] = [];
  private readonly perDay: number;
  private readonly random: () => number;

  constructor(product: Product, perDay: number, random: () => number) {
    this.defs = product === "three" ? THREE_PHASE : SINGLE_PHASE;
    this.perDay = perDay;
    this.random = random;
  }

  step(at: number, dtS: number): AlarmEvent[] {
    const events: AlarmEvent[] = [];
    for (let i = this.active.length - 1; i >= 0; i--) {
      const a = this.active[i] as Active;
      if (a.until <= at) {
        this.active.splice(i, 1);
        events.push(this.event(a.def, at, "disappear"));
      }
    }
    if (this.perDay > 0 && this.random() < (this.perDay * dtS) / 86_400) {
      const def = this.defs[Math.floor(this.random() * this.defs.length)] as FaultDefinition;
      if (!this.active.some((a) => a.def === def)) {
        const minutes = def.minutes[0] + this.random() * (def.minutes[1] - def.minutes[0]);
        this.active.push({ def, until: at + minutes * 60_000 });
        events.push(this.event(def, at, "occur"));
      }
    }
    return events;
  }

  /** "Clear fault": every active alarm disappears now. */
  clearAll(at: number): AlarmEvent[] {
    return this.active.splice(0).map((a) => this.event(a.def, at, "disappear"));
  }

  /** Alarm words with the bits of the active alarms. */
  words(): Map<string, number> {
    const out = new Map<string, number>();
    for (const a of this.active) out.set(a.def.key, (out.get(a.def.key) ?? 0) | (1 << a.def.bit));
    return out;
  }

  /** Fault status: 0 none, 1 alarm (levels 1–2), 2 fault (level 3). */
  level(): number {
    if (this.active.length === 0) return 0;
    return this.active.some((a) => a.def.level === 3) ? 2 : 1;
  }

  private event(def: FaultDefinition, at: number, state: "occur" | "disappear"): AlarmEvent {
    return { v: 1, ts: at, key: def.key, bit: def.bit, state, code: def.code, level: def.level };
  }
}
