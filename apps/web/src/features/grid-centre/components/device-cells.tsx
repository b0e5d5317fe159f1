import type { IeeeDeviceRecord } from "@ess/contracts";
import { GRID_COMMAND_MODES } from "@ess/domain";
import { Tooltip, Typography } from "antd";
import type { TFunction } from "i18next";
import { formatDateTime } from "../../../ui/format/date-time.ts";

/**
 * Compact cells of the device list, so its columns fit a 1,600 px window in every language
 * without losing anything: what is shortened is whole on hover and copied whole.
 */

/** One line of text cut with an ellipsis when its column is narrower, whole in its title. */
export function OneLine({ text, secondary }: { text: string; secondary?: boolean }) {
  return (
    <Typography.Text
      type={secondary ? "secondary" : undefined}
      title={text}
      style={{
        display: "block",
        fontSize: secondary ? 12 : undefined,
        overflow: "hidden",
        textOverflow: "ellipsis",
        whiteSpace: "nowrap",
      }}
    >
      {text}
    </Typography.Text>
  );
}

/** Hex digits of the LFDI shown in the list: its head tells sites apart (a site LFDI ends in the PEN, the same for all). */
export const LFDI_SHOWN = 8;

/** The LFDI's head, the whole value in a tooltip and copied whole by its copy button. */
export function LfdiCell({ lfdi }: { lfdi: string }) {
  const short = lfdi.length > LFDI_SHOWN ? `${lfdi.slice(0, LFDI_SHOWN)}…` : lfdi;
  return (
    <Typography.Text code copyable={{ text: lfdi }} style={{ fontSize: 12, whiteSpace: "nowrap" }}>
      <Tooltip title={<span style={{ fontFamily: "monospace" }}>{lfdi}</span>}>
        <span data-testid="ieee-lfdi">{short}</span>
      </Tooltip>
    </Typography.Text>
  );
}

const MODES = [
  ["regular", "regularCount"],
  ["sell", "sellCount"],
  ["emergency", "emergencyCount"],
  ["purePv", "purePvCount"],
] as const;

/** The four mode counts, each label with its number kept together; they wrap as the column allows. */
export function ModeCounts({ record, t }: { record: IeeeDeviceRecord; t: TFunction }) {
  return (
    <span style={{ display: "flex", flexWrap: "wrap", columnGap: 8, fontSize: 12 }}>
      {MODES.map(([mode, field]) => (
        <span key={mode} style={{ whiteSpace: "nowrap" }}>
          {t(`enums:gridCommandMode.${GRID_COMMAND_MODES[mode]}`)} {record[field]}
        </span>
      ))}
    </span>
  );
}

/** Created above updated in one column: two times of the same record, each named in its title. */
export function CreatedUpdated({ record, t }: { record: IeeeDeviceRecord; t: TFunction }) {
  const created = formatDateTime(record.createTime);
  const updated = formatDateTime(record.updateTime);
  return (
    <span style={{ display: "block", fontSize: 12, whiteSpace: "nowrap" }}>
      <span style={{ display: "block" }} title={`${t("gridCentre:columns.createTime")}: ${created}`}>
        {created}
      </span>
      <Typography.Text type="secondary" style={{ fontSize: 12 }} title={`${t("gridCentre:columns.updateTime")}: ${updated}`}>
        {updated}
      </Typography.Text>
    </span>
  );
}
