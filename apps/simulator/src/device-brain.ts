import {
  type AlarmEvent,
  blocksFromValues,
  type DeviceAck,
  pageLayout,
  type RefusalCode,
  type RegisterBlock,
  telemetryLayout,
} from "@ess/contracts";
import {
  CATALOGUE_PAGES,
  ENUMS,
  getRegister,
  isEnumName,
  isValidValue,
  requiresStandby,
  SELF_CHECK_REGISTERS,
} from "@ess/domain";
import type { DeviceCondition } from "./device-status.ts";
import { FaultInjector } from "./faults.ts";
import { singlePhaseBaseline, singlePhaseReadings, singlePhaseSettings } from "./image-single.ts";
import { threePhaseBaseline, threePhaseReadings } from "./image-three.ts";
import { localTime } from "./local-time.ts";
import { Plant, type PlantSettings, type PlantSpec } from "./plant.ts";
import { seededRandom } from "./random.ts";
import { SelfTest, singleSelfTestReadings } from "./self-test.ts";
import { threePhaseSettings } from "./settings-three.ts";

type Values = Record<string, number | string>;

/** Action registers (confirm selects) mapped to the command they trigger. */
const ACTION_REGISTERS: Record<string, number> = {
  TP_0X03_10: 0,
  TP_0X03_11: 1,
  TP_0X03_6: 2,
  TP_0X03_5: 3,
  TP_0X03_7: 4,
  TP_0X03_4: 5,
  TP_0X03_3: 6,
  TP_0X03_57: 10,
  bootCommand: 0,
  shutdownCommand: 1,
};

/**
 * Writing 1 to a model's start register starts the self-check: a single-phase check lasts this
 * long; a three-phase one runs one item per reading (`self-test.ts`).
 */
const SELF_CHECK_STARTS = new Set<string>([SELF_CHECK_REGISTERS.three.start, SELF_CHECK_REGISTERS.single.start]);
const SELF_CHECK_MS = 20_000;

export interface CommandOutcome {
  ack: Omit<DeviceAck, "v" | "id">;
  /** Alarm events the command caused (clear fault). */
  events: AlarmEvent[];
  /** The device restarts (reboot): it drops its connection for a moment. */
  restart?: boolean;
}

/**
 * One device without its network: the plant's physics, its holding registers, faults and the
 * rules by which it accepts settings and commands. The MQTT side (virtual-device.ts) asks it for
 * frames and passes it requests.
 */
export class DeviceBrain {
  readonly plant: Plant;
  readonly settings: Values;
  readonly condition: DeviceCondition;
  readonly faults: FaultInjector;
  private readonly selfTest = new SelfTest();
  private readonly readings: Values;
  private readonly factory: Values;
  sleeping = false;

  /**
   * `warmUp`: live through today up to `at` (15-minute steps from local midnight) so that a device
   * joining mid-day reports today's counters and a state of charge that fit the hour.
   */
  constructor(spec: PlantSpec, at: number, options: { faultsPerDay: number; warmUp?: boolean }) {
    const midnight = at - Math.floor(localTime(at, spec.site.timeZone).hour * 3_600_000);
    this.plant = new Plant(spec, options.warmUp ? midnight : at);
    const three = spec.product === "three";
    this.factory = three ? threePhaseSettings(this.plant) : singlePhaseSettings(this.plant);
    this.settings = { ...this.factory };
    this.readings = three ? threePhaseBaseline(this.plant) : singlePhaseBaseline(this.plant);
    this.condition = {
      running: true,
      alarmWords: new Map(),
      faultLevel: 0,
      upgradePercent: 0,
      firmware: 132,
      selfCheck: 0,
      selfCheckUntil: 0,
    };
    this.faults = new FaultInjector(spec.product, options.faultsPerDay, seededRandom(spec.seed + 7));
    if (options.warmUp) {
      for (let t = midnight + 900_000; t < at; t += 900_000) this.plant.step(t, this.plantSettings());
      this.plant.step(at, this.plantSettings());
    }
  }

  get product() {
    return this.plant.spec.product;
  }

  /** What the physics reads from the holding registers. */
  plantSettings(): PlantSettings {
    const n = (id: string, fallback: number) => {
      const v = this.settings[id];
      return typeof v === "number" ? v : fallback;
    };
    const three = this.product === "three";
    const scheduleByTime = n(three ? "TP_0X03_71" : "timingModeType", 2) === 1;
    const hourly = Array.from({ length: 24 }, (_, h) => n(three ? `TP_0X03_${185 + h}` : `HM6_0X03_${196 + h}`, 1));
    return {
      running: this.condition.running,
      mode: n(three ? "TP_0X03_72" : "systemModeSet", 1),
      hourlyModes: scheduleByTime ? hourly : null,
      socMin: n(three ? "TP_0X03_1054" : "lowerLimitOfGridConnectedSoc", 20),
      offGridSocMin: n(three ? "TP_0X03_1055" : "offGridSocLowerLimit", 10),
      // A sleeping battery neither charges nor discharges.
      chargeCurrentA: this.sleeping ? 0 : n(three ? "TP_0X03_1048" : "batteryChargingCurrent", 25),
      dischargeCurrentA: this.sleeping ? 0 : n(three ? "TP_0X03_1049" : "batteryDischargeCurrent", 25),
      // Three-phase models hold their anti-backflow percentage only in anti-backflow mode (TP_0X03_1039).
      exportLimitPct: three && n("TP_0X03_1039", 0) !== 1 ? null : n(three ? "TP_0X03_1028" : "antiBackflowPowerPercentage", 100),
      maxOutputPct: n(three ? "TP_0X03_1029" : "maximumOutputPowerPercentage", 100),
    };
  }

  /** Advances to `at`; returns the alarm events that happened meanwhile. */
  tick(at: number): AlarmEvent[] {
    const dtS = Math.max(0, (at - this.plant.state.at) / 1000);
    this.plant.step(at, this.plantSettings());
    const events = this.faults.step(at, dtS);
    this.condition.alarmWords = this.faults.words();
    this.condition.faultLevel = this.faults.level();
    // A self-check fails if the device is in fault, else completes.
    if (this.condition.selfCheck === 1 && this.product === "three") {
      this.condition.selfCheck = this.selfTest.step(this.settings, this.condition.faultLevel === 2);
    } else if (this.condition.selfCheck === 1 && at >= this.condition.selfCheckUntil) {
      this.condition.selfCheck = this.condition.faultLevel === 2 ? 2 : 3;
      // Single-phase models clear their start register when the check ends (they report no state).
      this.settings[SELF_CHECK_REGISTERS.single.start] = 0;
    }
    const settings = this.plantSettings();
    if (this.product === "three") {
      threePhaseReadings(this.readings, this.plant, settings, this.condition);
      Object.assign(this.readings, this.selfTest.readings());
    } else {
      singlePhaseReadings(this.readings, this.plant, settings, this.condition);
      Object.assign(this.readings, singleSelfTestReadings(this.condition.selfCheck >= 2));
    }
    return events;
  }

  telemetryBlocks(): RegisterBlock[] {
    return blocksFromValues(telemetryLayout(this.product), this.readings);
  }

  /** The blocks answering a page read, or null for a page this model does not have. */
  pageBlocks(page: number): RegisterBlock[] | null {
    const known = CATALOGUE_PAGES.find((p) => p.page === page);
    if (!known || known.product !== this.product) return null;
    return blocksFromValues(pageLayout(page), { ...this.readings, ...this.settings });
  }

  /** Applies a setting write, all or nothing; refuses as the inverter would. */
  write(values: readonly { key: string; raw: number | string }[], upgrading: boolean, at: number): CommandOutcome {
    const refuse = (code: RefusalCode, key?: string): CommandOutcome => ({
      ack: { ok: false, code, ...(key ? { key } : {}) },
      events: [],
    });
    if (upgrading) return refuse("busy");
    const accepted: [string, number | string][] = [];
    for (const { key, raw } of values) {
      const r = getRegister(key);
      if (!r || r.product !== this.product) return refuse("unknownKey", key);
      if (r.access !== "readWrite") return refuse("readOnly", key);
      let value: number | string = raw;
      if (typeof raw === "number") {
        value = Number((raw * r.scale).toFixed(6));
        const codes = r.enum && isEnumName(r.enum) ? ENUMS[r.enum].values : undefined;
        if (!isValidValue(r, value, codes)) return refuse("outOfRange", key);
      } else if (r.type !== "string" && r.type !== "dateTime") return refuse("outOfRange", key);
      if (requiresStandby(r) && this.condition.running) return refuse("needsStandby", key);
      accepted.push([r.id, value]);
    }
    const events: AlarmEvent[] = [];
    let restart = false;
    for (const [id, value] of accepted) {
      const action = ACTION_REGISTERS[id];
      if (action !== undefined) {
        if (value !== 0) {
          const outcome = this.command(action, false, at);
          if (!outcome.ack.ok) return outcome;
          events.push(...outcome.events);
          restart ||= outcome.restart ?? false;
        }
        continue;
      }
      this.settings[id] = value;
      if (SELF_CHECK_STARTS.has(id) && value === 1) {
        this.condition.selfCheck = 1;
        this.condition.selfCheckUntil = at + SELF_CHECK_MS;
        this.selfTest.start();
      }
    }
    return { ack: { ok: true }, events, restart };
  }

  /** Executes a command of the `deviceCommand` enumeration. */
  command(code: number, upgrading: boolean, at: number): CommandOutcome {
    const ok = (extra: Partial<CommandOutcome> = {}): CommandOutcome => ({ ack: { ok: true }, events: [], ...extra });
    if (upgrading) return { ack: { ok: false, code: "busy" }, events: [] };
    switch (code) {
      case 0:
      case 2:
        this.condition.running = true;
        return ok();
      case 1:
        this.condition.running = false;
        return ok();
      case 3:
        return ok({ restart: true });
      case 4:
        return ok({ events: this.faults.clearAll(at) });
      case 5:
        if (this.condition.running) return { ack: { ok: false, code: "needsStandby" }, events: [] };
        Object.assign(this.settings, this.factory);
        return ok();
      case 7:
        this.sleeping = true;
        return ok();
      case 8:
        this.sleeping = false;
        return ok();
      case 6:
      case 9:
      case 10:
      case 11:
        return ok();
      default:
        return { ack: { ok: false, code: "unsupported" }, events: [] };
    }
  }
}
