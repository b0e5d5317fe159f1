import { dispatch } from "./dispatch.ts";
import { type Household, LoadModel } from "./load-profile.ts";
import { type LocalTime, localTime } from "./local-time.ts";
import { seededRandom } from "./random.ts";
import type { Site } from "./sites.ts";
import { airTemperature, cloudCover, irradiance, sunElevation } from "./solar.ts";

export type Product = "single" | "three";

/** What one simulated installation is: inverter, PV array, battery, household, site. */
export interface PlantSpec {
  sn: string;
  product: Product;
  site: Site;
  ratedW: number;
  pvKwp: number;
  /** Battery modules of 16 LFP cells (3.2 V nominal) each. */
  batteryModules: number;
  cellAh: number;
  generatorW: number | null;
  household: Household;
  seed: number;
}

export const CELLS_PER_MODULE = 16;
const CELL_NOMINAL_V = 3.2;

export const ENERGY_FLOWS = ["pv", "load", "sell", "buy", "charge", "discharge"] as const;
export type EnergyFlow = (typeof ENERGY_FLOWS)[number];

/** The operating settings the physics reads (from the device's holding registers). */
export interface PlantSettings {
  running: boolean;
  mode: number;
  /** Mode per local hour when the schedule runs by time; null: the mode above. */
  hourlyModes: readonly number[] | null;
  socMin: number;
  offGridSocMin: number;
  chargeCurrentA: number;
  dischargeCurrentA: number;
  /** Export limit, % of the rated power; null while the inverter does not hold one (anti-backflow off). */
  exportLimitPct: number | null;
  /** Most the inverter puts out on its AC side, % of the rated power. */
  maxOutputPct: number;
}

export interface PlantState {
  at: number;
  local: LocalTime;
  effectiveMode: number;
  soc: number;
  soh: number;
  pvW: number;
  pv1Share: number;
  loadW: number;
  batteryW: number;
  gridW: number;
  generatorW: number;
  /** kWh today (since local midnight) and in total, per flow. */
  today: Record<EnergyFlow, number>;
  total: Record<EnergyFlow, number>;
  ambientC: number;
  inverterC: number;
  batteryC: number;
  gridV: [number, number, number];
  gridHz: number;
  /** Cell voltages (mV) and temperatures (°C), module by module. */
  cellMv: number[];
  cellC: number[];
  cycles: number;
  runSeconds: number;
}

export class Plant {
  readonly spec: PlantSpec;
  readonly state: PlantState;
  private readonly load: LoadModel;
  private readonly random: () => number;
  private readonly cellOffsetMv: number[];
  private generatorOn = false;

  constructor(spec: PlantSpec, at: number) {
    this.spec = spec;
    this.random = seededRandom(spec.seed);
    this.load = new LoadModel(spec.household, seededRandom(spec.seed + 1));
    const cells = spec.batteryModules * CELLS_PER_MODULE;
    this.cellOffsetMv = Array.from({ length: cells }, () => Math.round((this.random() - 0.5) * 16));
    const years = 0.5 + this.random() * 3;
    const total = {} as Record<EnergyFlow, number>;
    const yearly = {
      pv: spec.pvKwp * 1200,
      load: 4500 * spec.household.size,
      sell: spec.pvKwp * 450,
      buy: 1800,
      charge: 1500,
      discharge: 1400,
    };
    for (const f of ENERGY_FLOWS) total[f] = Math.round(yearly[f] * years * 10) / 10;
    this.state = {
      at,
      local: localTime(at, spec.site.timeZone),
      effectiveMode: 1,
      soc: 30 + this.random() * 50,
      soh: 96 + this.random() * 4,
      pvW: 0,
      pv1Share: 0.5 + this.random() * 0.1,
      loadW: 0,
      batteryW: 0,
      gridW: 0,
      generatorW: 0,
      today: { pv: 0, load: 0, sell: 0, buy: 0, charge: 0, discharge: 0 },
      total,
      ambientC: 20,
      inverterC: 25,
      batteryC: 22,
      gridV: [230, 230, 230],
      gridHz: 50,
      cellMv: new Array(cells).fill(3300),
      cellC: new Array(cells).fill(22),
      cycles: Math.round((total.discharge / this.capacityKwh()) * 10) / 10,
      runSeconds: Math.round(years * 365 * 86_400),
    };
  }

  capacityKwh(): number {
    return (this.spec.batteryModules * CELLS_PER_MODULE * CELL_NOMINAL_V * this.spec.cellAh) / 1000;
  }

  batteryVoltage(): number {
    return this.state.cellMv.reduce((s, v) => s + v, 0) / 1000;
  }

  /** Advances the physics to `at` (ms), `at` after the previous step. */
  step(at: number, settings: PlantSettings): PlantState {
    const s = this.state;
    const dtS = Math.max(0, Math.min(3600, (at - s.at) / 1000));
    const local = localTime(at, this.spec.site.timeZone);
    if (local.day !== s.local.day) for (const f of ENERGY_FLOWS) s.today[f] = 0;
    s.at = at;
    s.local = local;
    s.effectiveMode = settings.hourlyModes ? (settings.hourlyModes[Math.floor(local.hour)] ?? settings.mode) : settings.mode;

    s.ambientC = airTemperature(this.spec.site, at, local.hour);
    const clouds = cloudCover(this.spec.site, at, local.day);
    const g = irradiance(sunElevation(this.spec.site.latitude, this.spec.site.longitude, at), clouds);
    const cellTemp = s.ambientC + g / 40;
    const derate = 1 - Math.max(0, cellTemp - 25) * 0.004;
    const pvAvailable = settings.running ? Math.min(this.spec.pvKwp * g * 0.93 * derate, this.spec.ratedW * 1.1) : 0;
    const demand = this.load.step(at, local.hour, local.weekend, dtS);

    const voltage = this.batteryVoltage();
    const flow = dispatch({
      mode: settings.running ? s.effectiveMode : 6,
      pvW: pvAvailable,
      loadW: demand,
      soc: s.soc,
      socMin: s.effectiveMode === 7 ? settings.offGridSocMin : settings.socMin,
      maxChargeW: settings.running ? Math.min(settings.chargeCurrentA * voltage, this.spec.ratedW) : 0,
      maxDischargeW: settings.running ? Math.min(settings.dischargeCurrentA * voltage, this.spec.ratedW) : 0,
      exportLimitW:
        settings.exportLimitPct === null ? Number.POSITIVE_INFINITY : (this.spec.ratedW * settings.exportLimitPct) / 100,
      maxOutputW: (this.spec.ratedW * settings.maxOutputPct) / 100,
    });
    s.pvW = Math.round(flow.pvW);
    s.loadW = Math.round(flow.loadW);
    s.batteryW = Math.round(flow.batteryW);
    s.gridW = Math.round(flow.gridW);
    s.generatorW = 0;
    if (this.spec.generatorW && settings.running && s.effectiveMode === 7) {
      // Off grid, the generator starts when the battery runs low and stops once it is well charged.
      if (s.soc < settings.offGridSocMin + 10) this.generatorOn = true;
      if (s.soc > 80) this.generatorOn = false;
      if (this.generatorOn) {
        s.generatorW = this.spec.generatorW;
        s.loadW = demand;
        const spare = s.generatorW + s.pvW - s.loadW;
        s.batteryW = -Math.round(Math.min(Math.max(0, spare), settings.chargeCurrentA * voltage));
      }
    } else this.generatorOn = false;

    const hours = dtS / 3600;
    const capacity = this.capacityKwh();
    // Round-trip losses: 95 % into the battery, 95 % out of it.
    const storedKwh = s.batteryW < 0 ? (-s.batteryW * hours * 0.95) / 1000 : (-s.batteryW * hours) / 0.95 / 1000;
    s.soc = Math.max(0, Math.min(100, s.soc + (storedKwh / capacity) * 100));
    const add = (f: EnergyFlow, watts: number) => {
      const kwh = (Math.max(0, watts) * hours) / 1000;
      s.today[f] += kwh;
      s.total[f] += kwh;
    };
    add("pv", s.pvW);
    add("load", s.loadW);
    add("buy", s.gridW);
    add("sell", -s.gridW);
    add("charge", -s.batteryW);
    add("discharge", s.batteryW);
    s.cycles = s.total.discharge / capacity;
    if (settings.running) s.runSeconds += dtS;

    const throughput = Math.abs(s.batteryW) + s.pvW;
    s.inverterC = s.ambientC + 8 + throughput / 600;
    s.batteryC = s.ambientC * 0.5 + 11 + Math.abs(s.batteryW) / 1500;
    const amps = s.batteryW / Math.max(1, voltage);
    for (let i = 0; i < s.cellMv.length; i++) {
      s.cellMv[i] = Math.round(this.ocvMv(s.soc) - amps * 1.2 + (this.cellOffsetMv[i] ?? 0));
      s.cellC[i] = Math.round((s.batteryC + ((i % CELLS_PER_MODULE) - 8) * 0.08) * 10) / 10;
    }
    const wobble = () => (this.random() - 0.5) * 3;
    s.gridV = [229.5 + wobble(), 230.5 + wobble(), 230 + wobble()];
    s.gridHz = 50 + (this.random() - 0.5) * 0.04;
    return s;
  }

  /** LFP open-circuit voltage per cell, mV: a long plateau, steep at both ends. */
  private ocvMv(soc: number): number {
    const base = 3200 + soc * 1.3;
    const top = soc > 95 ? (soc - 95) * 24 : 0;
    const bottom = soc < 10 ? (10 - soc) * 35 : 0;
    return base + top - bottom;
  }
}
