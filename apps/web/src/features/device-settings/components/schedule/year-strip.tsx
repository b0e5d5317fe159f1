import type { ScheduleQuarter } from "@ess/domain";
import { Tooltip } from "antd";
import { useTranslation } from "react-i18next";
import { monthNames } from "./calendar-names.ts";

const QUARTER_TINTS = ["#b5f5ec", "#d6e4ff", "#ffe7ba", "#efdbff"];

/**
 * The year as twelve months, each showing the quarter that covers it: a month no quarter covers,
 * or two quarters claim, stands out before the user saves.
 */
export function YearStrip({ quarters }: { quarters: readonly ScheduleQuarter[] }) {
  const { t, i18n } = useTranslation(["schedules"]);
  const names = monthNames(i18n.language, "short");
  return (
    <div
      style={{ display: "grid", gridTemplateColumns: "repeat(12, 1fr)", gap: 2, marginBottom: 16 }}
      data-testid="schedule-year"
    >
      {names.map((name, i) => {
        const month = i + 1;
        const covering = quarters.flatMap((q, n) => (q.months.start <= month && month <= q.months.end ? [n] : []));
        const label =
          covering.length === 0
            ? t("schedules:view.noQuarter")
            : covering.map((n) => t("schedules:view.quarter", { n: n + 1 })).join(" + ");
        const clash = covering.length > 1;
        return (
          <Tooltip key={name} title={`${monthNames(i18n.language)[i]}: ${label}`}>
            <div
              data-testid={`schedule-year-${month}`}
              style={{
                padding: "4px 2px",
                textAlign: "center",
                fontSize: 12,
                borderRadius: 4,
                background: covering.length === 1 ? QUARTER_TINTS[covering[0] as number] : "#fafafa",
                border: clash ? "2px solid #cf1322" : covering.length === 0 ? "1px dashed #bfbfbf" : "1px solid transparent",
              }}
            >
              <div>{name}</div>
              <div style={{ fontWeight: 600, color: clash ? "#cf1322" : undefined }}>
                {covering.length === 0 ? "—" : covering.map((n) => `Q${n + 1}`).join("+")}
              </div>
            </div>
          </Tooltip>
        );
      })}
    </div>
  );
}
