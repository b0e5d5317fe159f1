import { scaledWatts } from "./command-mode.ts";
import type { ControlBase } from "./control-schedule.ts";

/**
 * What a control in force asks, as short parts the centre shows ("Export limit 2 kW"): one per
 * mode set, the site-wide ones first. Each part's key names its label (gridCentre:control.<key>);
 * limits in kW, percentages of the DER's maximum in %.
 */
export const CONTROL_PARTS = [
  "deEnergise",
  "disconnect",
  "exportLimit",
  "importLimit",
  "generationLimit",
  "loadLimit",
  "fixedPower",
  "maxPower",
  "storageTarget",
] as const;
export type ControlPartKey = (typeof CONTROL_PARTS)[number];

export interface ControlPart {
  key: ControlPartKey;
  kw?: number;
  percent?: number;
}

/** kW to three decimals at most: a limit of 1500 W reads 1.5. */
const kw = (power: { value: number; multiplier: number }) => Math.round(scaledWatts(power)) / 1000;
/** IEEE 2030.5 percentages are in hundredths. */
const percent = (hundredths: number) => hundredths / 100;

export function controlParts(control: ControlBase): ControlPart[] {
  const parts: ControlPart[] = [];
  if (control.opModEnergize === false) parts.push({ key: "deEnergise" });
  if (control.opModConnect === false) parts.push({ key: "disconnect" });
  if (control.opModExpLimW) parts.push({ key: "exportLimit", kw: kw(control.opModExpLimW) });
  if (control.opModImpLimW) parts.push({ key: "importLimit", kw: kw(control.opModImpLimW) });
  if (control.opModGenLimW) parts.push({ key: "generationLimit", kw: kw(control.opModGenLimW) });
  if (control.opModLoadLimW) parts.push({ key: "loadLimit", kw: kw(control.opModLoadLimW) });
  if (control.opModFixedW !== undefined) parts.push({ key: "fixedPower", percent: percent(control.opModFixedW) });
  if (control.opModMaxLimW !== undefined) parts.push({ key: "maxPower", percent: percent(control.opModMaxLimW) });
  if (control.opModStorageTargetW) parts.push({ key: "storageTarget", kw: kw(control.opModStorageTargetW) });
  return parts;
}
