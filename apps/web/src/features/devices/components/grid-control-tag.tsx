import type { IeeeActiveControl } from "@ess/contracts";
import { Tag } from "antd";
import type { TFunction } from "i18next";
import { activeControlLine } from "../../grid-centre/components/active-control-line.ts";

/**
 * "Under grid control" with what the utility's control asks (its limit, until when), for a device
 * the grid's control is applied to; nothing otherwise. The list's cell and the details header.
 */
export function GridControlTag({ control, t, testId }: { control: IeeeActiveControl | null; t: TFunction; testId?: string }) {
  if (!control) return null;
  return (
    <Tag color="purple" data-testid={testId}>
      {t("devices:header.underGridControl")}: {activeControlLine(control, t)}
    </Tag>
  );
}
