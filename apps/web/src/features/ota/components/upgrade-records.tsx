import type { UpgradeRecord } from "@ess/contracts";
import { useQuery } from "@tanstack/react-query";
import { Alert, Table } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { formatDateTime } from "../../../ui/format/date-time.ts";
import { UpgradeStatus, UpgradeTransfer } from "./upgrade-progress.tsx";

const time = (iso: string | null) => formatDateTime(iso);

/**
 * A device's upgrade record list (spec §2: version number, update time, upgrade status), newest
 * first, with progress, bytes and CRC while an upgrade runs and the cause when one failed.
 * Refreshed every few seconds while an upgrade is open. For the device details' tabs.
 */
export function UpgradeRecords({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation(["ota", "enums"]);
  const [page, setPage] = useState({ current: 1, size: 10 });
  const records = useQuery({
    queryKey: ["ota-records", deviceId, page],
    queryFn: () => call(API.ota.records, { query: { deviceId, ...page } }),
    refetchInterval: (q) => (q.state.data?.records.some((r) => r.status < 3) ? 2000 : 15_000),
  });
  if (records.error) return <Alert type="error" showIcon title={(records.error as Error).message} />;
  return (
    <Table<UpgradeRecord>
      data-testid="upgrade-records"
      rowKey="id"
      size="small"
      loading={records.isPending}
      dataSource={records.data?.records ?? []}
      scroll={{ x: "max-content" }}
      pagination={{
        current: page.current,
        pageSize: page.size,
        total: records.data?.total ?? 0,
        onChange: (current, size) => setPage({ current, size }),
      }}
      columns={[
        { key: "versionCode", dataIndex: "versionCode", title: t("ota:version") },
        {
          key: "firmwareType",
          title: t("ota:firmwareType"),
          render: (_, r) => t(`enums:appType.${r.firmwareType}`),
        },
        { key: "updateTime", title: t("ota:updateTime"), render: (_, r) => time(r.finishTime ?? r.updateTime) },
        { key: "status", title: t("ota:status"), render: (_, r) => <UpgradeStatus record={r} /> },
        { key: "transfer", title: `${t("ota:bytes")} · ${t("ota:crc")}`, render: (_, r) => <UpgradeTransfer record={r} /> },
        { key: "fromVersion", dataIndex: "fromVersion", title: t("ota:fromVersion"), render: (v) => v ?? "—" },
        { key: "attempts", dataIndex: "attempts", title: t("ota:attempts") },
      ]}
    />
  );
}
