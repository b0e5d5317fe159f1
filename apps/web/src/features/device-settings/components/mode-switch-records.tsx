import { useQuery } from "@tanstack/react-query";
import { Table } from "antd";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { formatDateTime } from "../../../ui/format/date-time.ts";

/** Every change of the device's system mode: when, who, from and to, and how it ended. */
export function ModeSwitchRecords({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation(["schedules", "settings", "enums"]);
  const records = useQuery({
    queryKey: ["mode-switch-records", deviceId],
    queryFn: () => call(API.mode.switchRecords, { query: { deviceId, size: 20 } }),
  });
  const mode = (v: number | null) => (v === null ? "—" : t(`enums:systemModeFilter.${v}`, { defaultValue: String(v) }));
  return (
    <Table
      size="small"
      rowKey="id"
      loading={records.isPending}
      dataSource={records.data?.records ?? []}
      pagination={false}
      data-testid="mode-switch-records"
      columns={[
        {
          title: t("settings:records.time"),
          dataIndex: "at",
          render: (ms: number) => formatDateTime(ms),
        },
        { title: t("settings:records.by"), dataIndex: "by" },
        { title: t("schedules:modes.from"), dataIndex: "from", render: mode },
        { title: t("schedules:modes.to"), dataIndex: "to", render: mode },
        { title: t("settings:records.state"), dataIndex: "state", render: (s: string) => t(`settings:states.${s}`) },
      ]}
    />
  );
}
