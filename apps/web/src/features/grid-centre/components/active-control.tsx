import type { IeeeActiveControl } from "@ess/contracts";
import { Typography } from "antd";
import type { TFunction } from "i18next";
import { activeControlLine } from "./active-control-line.ts";

/** The device list's cell: the control in force, its program below; "—" when nothing is in force. */
export function activeControlText(active: IeeeActiveControl | null, t: TFunction) {
  if (!active) return "—";
  return (
    <span>
      {activeControlLine(active, t)}
      <br />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t("gridCentre:control.source", { program: active.programMrid, primacy: active.primacy })}
      </Typography.Text>
    </span>
  );
}
