import type { AlarmRecord } from "@ess/contracts";
import { Typography } from "antd";
import type { TFunction } from "i18next";

/** An alarm's information with its possible causes and solution, shown in the row itself. */
export function alarmDetails(a: AlarmRecord, t: TFunction) {
  return (
    <div data-testid="alarm-details" style={{ maxWidth: 520, whiteSpace: "normal" }}>
      <div style={{ fontWeight: 500 }}>{a.info ?? "—"}</div>
      {a.causes && (
        <Typography.Text type="secondary" style={{ display: "block" }} data-testid="alarm-causes">
          {t("alarms:columns.causes")}: {a.causes}
        </Typography.Text>
      )}
      {a.remedy && (
        <Typography.Text style={{ display: "block" }} data-testid="alarm-remedy">
          {t("alarms:columns.remedy")}: {a.remedy}
        </Typography.Text>
      )}
    </div>
  );
}
