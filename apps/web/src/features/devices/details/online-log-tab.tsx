import { useQuery } from "@tanstack/react-query";
import { Table, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { formatDateTime } from "../../../ui/format/date-time.ts";
import type { DeviceTabProps } from "./tab-registry.ts";

/** The on/off-line log of the device, newest first, paged by the server. */
export default function OnlineLogTab({ device }: DeviceTabProps) {
  const { t } = useTranslation(["devices", "enums"]);
  const [page, setPage] = useState({ current: 1, size: 10 });
  const log = useQuery({
    queryKey: ["device-online-log", device.id, page],
    queryFn: () => call(API.deviceTelemetry.onlineLog, { query: { deviceId: device.id, ...page } }),
  });
  return (
    <Table
      size="small"
      rowKey={(r) => `${r.at}-${r.status}`}
      loading={log.isPending}
      dataSource={log.data?.records ?? []}
      data-testid="online-log"
      pagination={{
        current: page.current,
        pageSize: page.size,
        total: log.data?.total ?? 0,
        onChange: (current, size) => setPage({ current, size }),
      }}
      columns={[
        { title: t("log.at"), dataIndex: "at", render: (at: number) => formatDateTime(at) },
        {
          title: t("log.status"),
          dataIndex: "status",
          render: (s: number) => <Tag color={s === 1 ? "green" : undefined}>{t(`enums:onlineStatusFilter.${s}`)}</Tag>,
        },
        { title: t("log.reason"), dataIndex: "reason", render: (r: string) => t(`log.reasons.${r}`) },
      ]}
    />
  );
}
