/**
 * Household consumption, W: a base load, a morning and an evening peak (later and flatter at
 * weekends), midday use, and appliances (kettle, oven, washing machine, heat pump) switching on at
 * random for minutes at a time.
 */
export interface Household {
  /** Scale of the whole profile (larger homes on three-phase inverters). */
  size: number;
  baseW: number;
}

interface Appliance {
  watts: number;
  minutes: number;
  /** Expected starts per day, weighted by the hour profile. */
  perDay: number;
}

const APPLIANCES: readonly Appliance[] = [
  { watts: 2000, minutes: 4, perDay: 4 },
  { watts: 2200, minutes: 45, perDay: 0.6 },
  { watts: 1800, minutes: 90, perDay: 0.5 },
  { watts: 1200, minutes: 30, perDay: 1.5 },
];

const bump = (hour: number, centre: number, width: number) => Math.exp(-(((hour - centre) / width) ** 2));

export function dailyShape(localHour: number, weekend: boolean): number {
  const morning = weekend ? bump(localHour, 9, 1.6) : bump(localHour, 7.2, 1);
  const evening = bump(localHour, 19.5, 2);
  const midday = weekend ? 0.5 * bump(localHour, 13, 2.5) : 0.2 * bump(localHour, 13, 2.5);
  return 0.9 * morning + 1.4 * evening + midday;
}

export class LoadModel {
  private readonly running: { until: number; watts: number }[] = [];
  private readonly household: Household;
  private readonly random: () => number;

  constructor(household: Household, random: () => number) {
    this.household = household;
    this.random = random;
  }

  /** Power drawn at `at` (local hour and weekend given), after `dtS` seconds since the last call. */
  step(at: number, localHour: number, weekend: boolean, dtS: number): number {
    for (let i = this.running.length - 1; i >= 0; i--) if ((this.running[i]?.until ?? 0) <= at) this.running.splice(i, 1);
    const activity = 0.25 + dailyShape(localHour, weekend);
    for (const a of APPLIANCES) {
      const chance = (a.perDay * activity * dtS) / 86_400 / 0.9;
      if (this.random() < chance) this.running.push({ until: at + a.minutes * 60_000, watts: a.watts });
    }
    const flicker = 1 + 0.08 * (this.random() - 0.5);
    const profile = this.household.baseW + 700 * dailyShape(localHour, weekend);
    return Math.round((profile * flicker + this.running.reduce((s, r) => s + r.watts, 0)) * this.household.size);
  }
}
