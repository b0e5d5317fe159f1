import { getRegister } from "../catalogue/catalogue.ts";
import type { EnumValue } from "../catalogue/enums.ts";
import { ANTI_BACKFLOW_PLAIN_MAX } from "../settings/setting-value-rules.ts";
import { type ScaledPower, scaledWatts } from "./command-mode.ts";
import type { ControlBase } from "./control-schedule.ts";

/**
 * How a utility control (IEEE 2030.5 DERControlBase with the CSIP-AUS limits) becomes settings of
 * our inverters: for each field, the register or command of each product that does it, the
 * scaling from watts to the register's unit, the clamp to the device's rating and the register's
 * range, and what a product cannot do at all. The one place this is decided; the server's control
 * applier only sends what `controlTarget` answers and remembers it.
 */

export type ControlProduct = "single" | "three";

/** What of the device a mapping needs. */
export interface ControlDevice {
  product: ControlProduct;
  /** Rated output (the device's own or staff-given rated power), W. */
  ratedW: number;
  /** Battery voltage of the newest reading, V (limits the inverter takes as a current); null when unknown. */
  batteryV: number | null;
  /** Three-phase four-wire: only then do the per-phase (B and C) settings mean something. */
  fourWire: boolean;
}

/**
 * The registers (three-phase, TP_0X03) and setting keys (single-phase) the controls act through.
 * - export: the anti-reverse-flow (anti-backflow) percentage is the feed-in limit the inverter holds
 *   at its meter/CT — exactly CSIP-AUS's site export limit. Three-phase models hold it only in
 *   "anti backflow mode" (TP_0X03_1039 = 1) and, wired four-wire, per phase (1028 phase A, 1098 B,
 *   1099 C); single-phase models have the one key and no switch.
 * - output: "maximum output power percentage" caps the inverter's AC output whatever feeds it
 *   (PV and battery) — the DER's generation limit.
 * - charge / discharge: the battery charge and discharge currents (A, 0.1 A steps) are the only
 *   battery power limits the products take; a limit in W becomes a current at the battery's voltage.
 * - mode: the system operation mode, switched in real time (schedule type 2) so the hourly
 *   schedule does not override it.
 * - ramp: "power setting adjustment rate" (% of Wmax per second) is how fast the inverter moves to
 *   a new power setting — setGradW in the register's unit.
 */
export const CONTROL_REGISTERS = {
  three: {
    exportEnable: "TP_0X03_1039",
    exportPct: "TP_0X03_1028",
    exportPctPerPhase: ["TP_0X03_1098", "TP_0X03_1099"],
    outputPct: "TP_0X03_1029",
    chargeA: "TP_0X03_1048",
    dischargeA: "TP_0X03_1049",
    scheduleType: "TP_0X03_71",
    mode: "TP_0X03_72",
    ramp: "TP_0X03_1030",
  },
  single: {
    exportEnable: null,
    exportPct: "antiBackflowPowerPercentage",
    exportPctPerPhase: [],
    outputPct: "maximumOutputPowerPercentage",
    chargeA: "batteryChargingCurrent",
    dischargeA: "batteryDischargeCurrent",
    scheduleType: "timingModeType",
    mode: "systemModeSet",
    ramp: "powerSettingAdjustmentRate",
  },
} as const satisfies Record<ControlProduct, Record<string, string | null | readonly string[]>>;

/** exportControlMode 1: anti-backflow mode (the export limit is held). */
export const EXPORT_LIMIT_ON = 1;
/** scheduleType 2: real-time switching of the current system operation mode. */
export const REAL_TIME_MODE = 2;
/** systemModeFilter 4: emergency backup — keeps the battery full from PV and from the grid. */
export const CHARGE_FROM_GRID_MODE = 4 satisfies EnumValue<"systemModeFilter">;
/**
 * systemModeFilter 3: full power feed — the battery discharges at the discharge current, the house
 * load is served first and the rest goes to the grid (spec §4's "export" mode), still capped at the
 * meter by the anti-backflow limit when that is on.
 */
export const FULL_POWER_FEED_MODE = 3 satisfies EnumValue<"systemModeFilter">;
/** Device commands of spec §4's enumeration (deviceCommand): 0 power on, 1 power off. */
export const POWER_COMMANDS = { on: 0, off: 1 } as const;

/** Why a control field is not carried out on a product (told to the utility as a partial opt-out). */
export type NotApplicableReason =
  /** The battery's voltage is not known yet (no reading), so a power cannot become a current. */
  "batteryVoltageUnknown";

export interface ControlTarget {
  /** Setting key → value (engineering units) the device must hold while the control is active. */
  settings: Record<string, number>;
  /** "off": switched off by the control (opModEnergize or opModConnect false); null: left as it is. */
  power: "off" | null;
  notApplicable: { field: keyof ControlBase; reason: NotApplicableReason }[];
}

/**
 * A value in a register's terms: rounded down to its step (a limit rounded up would let through
 * more than the utility allows), then clamped to the register's range and to `max`.
 */
export function registerValue(id: string, value: number, max = Number.POSITIVE_INFINITY): number {
  const r = getRegister(id);
  if (!r) throw new Error(`unknown register ${id}`);
  const stepped = Math.floor(value / r.scale + 1e-9) * r.scale;
  const clamped = Math.min(Math.max(stepped, r.min), r.max, max);
  return Number(clamped.toFixed(6));
}

/** The adjustment rate (%/s) that moves the full rating within `rampTms` hundredths of a second. */
function rampWithin(id: string, rampTms: number): number {
  const r = getRegister(id);
  if (!r) throw new Error(`unknown register ${id}`);
  if (rampTms <= 0) return r.max;
  const stepped = Math.ceil(10_000 / rampTms / r.scale - 1e-9) * r.scale;
  return Number(Math.min(Math.max(stepped, r.min), r.max).toFixed(6));
}

const watts = (p: ScaledPower | undefined) => (p === undefined ? undefined : Math.max(0, scaledWatts(p)));
const least = (...values: (number | undefined)[]) => {
  const known = values.filter((v): v is number => v !== undefined);
  return known.length > 0 ? Math.min(...known) : undefined;
};

/**
 * The battery power the control asks for, W (above zero discharges): the storage target, else a
 * fixed active power (hundredths of a percent of the rated power); undefined when neither is set.
 */
function storageTargetW(base: ControlBase, ratedW: number): number | undefined {
  if (base.opModStorageTargetW) return scaledWatts(base.opModStorageTargetW);
  if (base.opModFixedW !== undefined) return (base.opModFixedW / 10_000) * ratedW;
  return undefined;
}

/**
 * The settings (and power state) a product must hold for the control `base`:
 * - opModExpLimW → the anti-backflow percentage of the rated power (never above 100 %: beyond it
 *   needs AC coupling and the inverter cannot export more than its rating anyway), switched on.
 * - opModGenLimW, opModMaxLimW → the maximum output percentage (the tighter of the two), and the
 *   generation limit also caps the discharge current.
 * - opModLoadLimW → the charge current. opModImpLimW → the charge current too: the house's own load
 *   is not the inverter's to limit, so what the console can hold back is the battery charging
 *   from the grid — it never draws more than the import limit.
 * - storage target / opModFixedW: charging → charge-from-grid mode (4) with the charge current at
 *   the target; zero → battery idle (both currents 0); discharging → full power feed mode (3) with
 *   the discharge current at the target (or the generation limit, the tighter). The battery then
 *   feeds the house first and exports the rest; an export limit given beside it stays held by the
 *   anti-backflow setting, so the grid never sees more than opModExpLimW (CSIP-AUS STO-03). Both
 *   directions are real-time mode switches, so the hourly schedule does not override them.
 * - opModEnergize / opModConnect false → power off (command); the products have no separate
 *   galvanic disconnect, so both mean the same.
 * - setGradW → the power setting adjustment rate (hundredths of %/s → %/s). A control's own
 *   rampTms (hundredths of a second to reach its values) wins over it: the products ramp at one
 *   rate, so the rate is set for a full-scale move (100 % of the rating) to fit within rampTms,
 *   rounded up to the register's step — any smaller move is done sooner; 0 is the fastest rate.
 */
export function controlTarget(device: ControlDevice, base: ControlBase): ControlTarget {
  const ids = CONTROL_REGISTERS[device.product];
  const target: ControlTarget = { settings: {}, power: null, notApplicable: [] };
  const pct = (w: number) => (w / device.ratedW) * 100;
  const amps = (w: number) => (device.batteryV ? w / device.batteryV : undefined);
  const cannot = (fields: (keyof ControlBase)[], reason: NotApplicableReason) => {
    for (const field of fields) if (base[field] !== undefined) target.notApplicable.push({ field, reason });
  };

  const exportW = watts(base.opModExpLimW);
  if (exportW !== undefined) {
    const value = registerValue(ids.exportPct, pct(exportW), ANTI_BACKFLOW_PLAIN_MAX);
    target.settings[ids.exportPct] = value;
    if (device.fourWire) for (const id of ids.exportPctPerPhase) target.settings[id] = value;
    if (ids.exportEnable) target.settings[ids.exportEnable] = EXPORT_LIMIT_ON;
  }

  const genW = watts(base.opModGenLimW);
  const maxLimW = base.opModMaxLimW === undefined ? undefined : (Math.max(0, base.opModMaxLimW) / 10_000) * device.ratedW;
  const outputW = least(genW, maxLimW);
  if (outputW !== undefined) target.settings[ids.outputPct] = registerValue(ids.outputPct, pct(outputW));

  const stored = storageTargetW(base, device.ratedW);
  const storageField: (keyof ControlBase)[] = base.opModStorageTargetW ? ["opModStorageTargetW"] : ["opModFixedW"];
  const charging = stored !== undefined && stored <= 0 ? -stored : undefined;
  const discharging = stored !== undefined && stored >= 0 ? stored : undefined;
  const chargeW = least(watts(base.opModLoadLimW), watts(base.opModImpLimW), charging);
  const dischargeW = least(genW, discharging);
  const currentFields: (keyof ControlBase)[] = ["opModLoadLimW", "opModImpLimW", "opModGenLimW"];
  if (device.batteryV === null || device.batteryV <= 0) {
    cannot(stored !== undefined ? [...currentFields, ...storageField] : currentFields, "batteryVoltageUnknown");
  } else {
    if (chargeW !== undefined) target.settings[ids.chargeA] = registerValue(ids.chargeA, amps(chargeW) as number);
    if (dischargeW !== undefined) target.settings[ids.dischargeA] = registerValue(ids.dischargeA, amps(dischargeW) as number);
    if (stored !== undefined && stored !== 0) {
      target.settings[ids.scheduleType] = REAL_TIME_MODE;
      target.settings[ids.mode] = stored < 0 ? CHARGE_FROM_GRID_MODE : FULL_POWER_FEED_MODE;
    }
  }

  if (base.rampTms !== undefined) target.settings[ids.ramp] = rampWithin(ids.ramp, base.rampTms);
  else if (base.setGradW !== undefined) target.settings[ids.ramp] = registerValue(ids.ramp, Math.max(0, base.setGradW) / 100);
  if (base.opModEnergize === false || base.opModConnect === false) target.power = "off";
  return target;
}
