import { ENUMS } from "@ess/domain";
import { Select } from "antd";
import { useTranslation } from "react-i18next";

/** The system modes a schedule chooses from (`systemModeFilter`). */
export const MODES = ENUMS.systemModeFilter.values;

/**
 * One colour per system mode, the same in the day strip, the legend and the mode selects, so a
 * mode is recognised at a glance; the label is always shown beside or on hover, never the colour alone.
 */
const COLOURS: readonly { background: string; text: string }[] = [
  { background: "#389e0d", text: "#fff" }, // battery priority
  { background: "#1677ff", text: "#fff" }, // home load priority
  { background: "#722ed1", text: "#fff" }, // grid priority
  { background: "#d46b08", text: "#fff" }, // full power feed-in
  { background: "#cf1322", text: "#fff" }, // emergency backup
  { background: "#c41d7f", text: "#fff" }, // AC charging off emergency backup
  { background: "#fadb14", text: "#262626" }, // pure PV
  { background: "#595959", text: "#fff" }, // forced off-grid
];

export const modeColour = (mode: number) => COLOURS[mode] ?? { background: "#d9d9d9", text: "#262626" };

export function ModeSwatch({ mode }: { mode: number }) {
  return (
    <span
      aria-hidden
      style={{
        display: "inline-block",
        width: 10,
        height: 10,
        borderRadius: 2,
        marginInlineEnd: 6,
        background: modeColour(mode).background,
      }}
    />
  );
}

/** A system mode chosen by its translated label, with its colour. */
export function ModeSelect({
  value,
  onChange,
  disabled,
  testId,
  label,
}: {
  value: number;
  onChange: (mode: number) => void;
  disabled: boolean;
  testId: string;
  label: string;
}) {
  const { t } = useTranslation(["enums"]);
  return (
    <Select
      value={value}
      onChange={onChange}
      disabled={disabled}
      aria-label={label}
      data-testid={testId}
      style={{ width: "100%" }}
      popupMatchSelectWidth={false}
      options={MODES.map((m) => ({
        value: m,
        label: (
          <span>
            <ModeSwatch mode={m} />
            {t(`enums:systemModeFilter.${m}`)}
          </span>
        ),
      }))}
    />
  );
}
