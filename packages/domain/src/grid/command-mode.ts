import { GRID_COMMAND_MODES, type GridCommandMode } from "./site-states.ts";

/** A power limit as a control carries it: a value and its power-of-ten multiplier. */
export interface ScaledPower {
  value: number;
  multiplier: number;
}

/** The parts of a DERControlBase (IEEE 2030.5 / CSIP-AUS) the centre's mode counts look at. */
export interface ControlModeInput {
  opModEnergize?: boolean;
  opModConnect?: boolean;
  /** Signed hundredths of a percent of setMaxW; above zero exports. */
  opModFixedW?: number;
  opModExpLimW?: ScaledPower;
  opModImpLimW?: ScaledPower;
  /** Battery power asked for, W; above zero discharges (fed to the grid in full power feed mode). */
  opModStorageTargetW?: ScaledPower;
}

/** Watts of a scaled value. */
export function scaledWatts(power: ScaledPower): number {
  return power.value * 10 ** power.multiplier;
}

/**
 * What a received control asks of the site, for the centre's mode counts (GRID_COMMAND_MODES):
 * de-energise or disconnect is an emergency; export and import both limited to zero is pure PV
 * (the panels feed the house, nothing crosses the meter); a positive export limit, a fixed export
 * or a discharging storage target (the battery feeds the grid in full power feed mode) is selling;
 * anything else (no limits, an import limit only, a charging target) is regular operation.
 */
export function commandMode(base: ControlModeInput): GridCommandMode {
  if (base.opModEnergize === false || base.opModConnect === false) return GRID_COMMAND_MODES.emergency;
  const exp = base.opModExpLimW ? scaledWatts(base.opModExpLimW) : undefined;
  const imp = base.opModImpLimW ? scaledWatts(base.opModImpLimW) : undefined;
  if (exp === 0 && imp === 0) return GRID_COMMAND_MODES.purePv;
  const stored = base.opModStorageTargetW ? scaledWatts(base.opModStorageTargetW) : undefined;
  const discharging = (base.opModFixedW !== undefined && base.opModFixedW > 0) || (stored !== undefined && stored > 0);
  if ((exp !== undefined && exp > 0) || discharging) return GRID_COMMAND_MODES.sell;
  return GRID_COMMAND_MODES.regular;
}
