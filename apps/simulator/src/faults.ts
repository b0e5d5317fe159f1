import type { AlarmEvent } from "@ess/contracts";
import { type FaultTrigger, faultTriggers } from "@ess/domain";
import type { Product } from "./plant.ts";

/** An alarm the simulator can raise: a bit of an alarm word (or a status flag at 0), with the device's fault code. */
export interface FaultDefinition {
  code: number;
  level: 1 | 2 | 3;
  trigger: FaultTrigger;
  /** How long it lasts, minutes (drawn between the two). */
  minutes: readonly [number, number];
}

// Faults of higher levels clear sooner (a protection trips and resets); warnings linger.
const DURATION: Record<1 | 2 | 3, readonly [number, number]> = { 1: [10, 90], 2: [5, 40], 3: [1, 15] };

/** The codes of the domain's fault catalogue that a product's telemetry can raise (one source for console and simulator). */
function definitions(product: Product): FaultDefinition[] {
  return faultTriggers(product === "three" ? 2 : 1).map((t) => ({ ...t, minutes: DURATION[t.level] }));
}

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
    this.defs = definitions(product);
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

  /** Raises `code` now (fault injection for tests and demos); it lasts until cleared, or `forMs`. */
  inject(code: number, at: number, forMs = Number.POSITIVE_INFINITY): AlarmEvent[] {
    const def = this.defs.find((d) => d.code === code);
    if (!def) throw new Error(`this product has no fault code ${code}`);
    const active = this.active.find((a) => a.def === def);
    if (active) {
      active.until = at + forMs;
      return [];
    }
    this.active.push({ def, until: at + forMs });
    return [this.event(def, at, "occur")];
  }

  /** Clears `code` now, if active. */
  clear(code: number, at: number): AlarmEvent[] {
    const i = this.active.findIndex((a) => a.def.code === code);
    if (i < 0) return [];
    const [a] = this.active.splice(i, 1);
    return [this.event((a as Active).def, at, "disappear")];
  }

  /** The fault codes this product can raise. */
  codes(): number[] {
    return this.defs.map((d) => d.code);
  }

  /** "Clear fault": every active alarm disappears now. */
  clearAll(at: number): AlarmEvent[] {
    return this.active.splice(0).map((a) => this.event(a.def, at, "disappear"));
  }

  /**
   * Every alarm word and status flag the product's faults use: bit words with the bits of the
   * active alarms (0 when none), communication flags 1 (normal) or 0 while their fault is active.
   */
  words(): Map<string, number> {
    const out = new Map<string, number>();
    for (const d of this.defs) if (!out.has(d.trigger.key)) out.set(d.trigger.key, "zero" in d.trigger ? 1 : 0);
    for (const a of this.active) {
      const t = a.def.trigger;
      out.set(t.key, "zero" in t ? 0 : (out.get(t.key) ?? 0) | (1 << t.bit));
    }
    return out;
  }

  /** Fault status: 0 none, 1 alarm (levels 1–2), 2 fault (level 3). */
  level(): number {
    if (this.active.length === 0) return 0;
    return this.active.some((a) => a.def.level === 3) ? 2 : 1;
  }

  private event(def: FaultDefinition, at: number, state: "occur" | "disappear"): AlarmEvent {
    const bit = "bit" in def.trigger ? def.trigger.bit : 0;
    return { v: 1, ts: at, key: def.trigger.key, bit, state, code: def.code, level: def.level };
  }
}
