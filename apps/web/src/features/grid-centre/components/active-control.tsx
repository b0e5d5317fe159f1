import type { IeeeActiveControl } from "@ess/contracts";
import type { TFunction } from "i18next";
import { activeControlLine } from "./active-control-line.ts";
import { OneLine } from "./device-cells.tsx";

/**
 * The device list's cell: the control in force, its program below; "—" when nothing is in force.
 * A program's mRID is one long word: its line ends in an ellipsis, whole in its title (and in the
 * device's controls drawer), rather than widening the list.
 */
export function activeControlText(active: IeeeActiveControl | null, t: TFunction) {
  if (!active) return "—";
  const source = t("gridCentre:control.source", { program: active.programMrid, primacy: active.primacy });
  return (
    <span>
      {activeControlLine(active, t)}
      <OneLine text={source} secondary />
    </span>
  );
}
