import type { DERAvailability, DERCapability, DERSettings, DERStatus, PowerFactor, ScaledValue } from "@ess/sep2";

/**
 * The four DER descriptions the aggregator writes for a site's inverter and battery, from what the
 * console knows of the device: its rated power (catalogue or reported) and its latest telemetry.
 */

/** What the descriptions are made from. */
export interface DerFacts {
  ratedPowerW: number;
  /** Usable battery energy, Wh (see STORAGE_HOURS). */
  storageWh: number;
  online: boolean;
  /** Latest state of charge, percent; null when unknown. */
  socPercent: number | null;
}

/**
 * The console does not know a battery's capacity (staff type none, devices report none); a
 * residential hybrid inverter's battery is taken to hold its rated power for two hours. Readings and
 * ratings of stored energy are therefore estimates until the catalogue carries capacities.
 */
export const STORAGE_HOURS = 2;

/** DERType 83: combined PV and storage (IEEE 2030.5). */
const COMBINED_PV_STORAGE = 83;
/** DERControlType bits: 0 charge, 1 discharge, 2 opModConnect, 3 opModEnergize, 7 opModFixedW. */
const MODES_SUPPORTED = (0b1000_1111).toString(16).toUpperCase().padStart(8, "0");
/** CSIP-AUS doeModesSupported: ExpLimW, ImpLimW, GenLimW, LoadLimW. */
const DOE_MODES = "0F";
/**
 * CSIP-AUS v1.3 vppModesSupported: bit0 opModStorageTargetW, acted on both ways (charge from the
 * grid, or full power feed mode at the discharge current; domain control-mappings).
 */
const VPP_MODES = "01";
/**
 * AS/NZS 4777.2 asks inverters for reactive power down to a 0.8 power factor either way: 60 % of
 * the rated apparent power as var, delivered or received. The console reads no reactive ratings,
 * so the standard's minimum is what it declares.
 */
const MIN_POWER_FACTOR: PowerFactor = { displacement: 80, multiplier: -2 };
const REACTIVE_SHARE = 0.6;
const INT16_MAX = 32_767;

/**
 * A value as IEEE 2030.5 carries it: an Int16 and a power-of-ten multiplier. The smallest
 * multiplier that fits keeps the most precision (6000 W → 6000×10⁰, 50 000 W → 5000×10¹).
 */
export function scaled(value: number): ScaledValue {
  let multiplier = 0;
  let v = Math.round(value);
  while (Math.abs(v) > INT16_MAX) {
    multiplier++;
    v = Math.round(value / 10 ** multiplier);
  }
  return { value: v, multiplier };
}

export function derCapability(facts: DerFacts): DERCapability {
  return {
    modesSupported: MODES_SUPPORTED,
    rtgMaxW: scaled(facts.ratedPowerW),
    rtgMaxVA: scaled(facts.ratedPowerW),
    rtgMaxVar: scaled(facts.ratedPowerW * REACTIVE_SHARE),
    rtgMaxVarNeg: scaled(facts.ratedPowerW * REACTIVE_SHARE),
    rtgMinPFOverExcited: MIN_POWER_FACTOR,
    rtgMinPFUnderExcited: MIN_POWER_FACTOR,
    rtgMaxChargeRateW: scaled(facts.ratedPowerW),
    rtgMaxDischargeRateW: scaled(facts.ratedPowerW),
    rtgMaxWh: scaled(facts.storageWh),
    type: COMBINED_PV_STORAGE,
    doeModesSupported: DOE_MODES,
    vppModesSupported: VPP_MODES,
  };
}

/** 27 hundredths of a percent of setMaxW per second: AS/NZS 4777.2's default ramp (about 16 %/min). */
export const DEFAULT_GRAD_W = 27;

/**
 * `gradW` is the ramp the device is set to: the utility's default control's setGradW once one
 * carries it (the console applies it to the device's ramp register), else the standard's.
 */
export function derSettings(facts: DerFacts, nowS: number, gradW = DEFAULT_GRAD_W): DERSettings {
  return {
    modesEnabled: MODES_SUPPORTED,
    setGradW: gradW,
    setMaxW: scaled(facts.ratedPowerW),
    setMaxVA: scaled(facts.ratedPowerW),
    setMaxVar: scaled(facts.ratedPowerW * REACTIVE_SHARE),
    setMaxVarNeg: scaled(facts.ratedPowerW * REACTIVE_SHARE),
    setMinPFOverExcited: MIN_POWER_FACTOR,
    setMinPFUnderExcited: MIN_POWER_FACTOR,
    setMaxChargeRateW: scaled(facts.ratedPowerW),
    setMaxDischargeRateW: scaled(facts.ratedPowerW),
    setMaxWh: scaled(facts.storageWh),
    // No reserve is kept back: the console sets none on the devices.
    setMinWh: scaled(0),
    updatedTime: nowS,
    doeModesEnabled: DOE_MODES,
    vppModesEnabled: VPP_MODES,
  };
}

/** Connect bitmaps: bit0 connected, bit1 available, bit2 operating. */
const RUNNING = "07";
const STOPPED = "00";

export function derStatus(facts: DerFacts, nowS: number): DERStatus {
  const connect = { dateTime: nowS, value: facts.online ? RUNNING : STOPPED };
  return {
    genConnectStatus: connect,
    // InverterStatus 4: operating (MPPT), 1: off. OperationalModeStatus 2: operational, 1: off.
    inverterStatus: { dateTime: nowS, value: facts.online ? 4 : 1 },
    operationalModeStatus: { dateTime: nowS, value: facts.online ? 2 : 1 },
    readingTime: nowS,
    // PerCent: hundredths of a percent.
    ...(facts.socPercent === null ? {} : { stateOfChargeStatus: { dateTime: nowS, value: Math.round(facts.socPercent * 100) } }),
    storConnectStatus: connect,
  };
}

export function derAvailability(facts: DerFacts, nowS: number): DERAvailability {
  const stored = facts.socPercent === null ? 0 : (facts.storageWh * facts.socPercent) / 100;
  return {
    readingTime: nowS,
    // Seconds the battery can deliver rated power from its present charge.
    availabilityDuration: facts.ratedPowerW > 0 ? Math.floor((stored / facts.ratedPowerW) * 3600) : 0,
    statWAvail: scaled(facts.online ? facts.ratedPowerW : 0),
  };
}
