import type { UpgradeRecord } from "@ess/contracts";
import { useQuery } from "@tanstack/react-query";
import { Segmented, Space, Table } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { formatDateTime } from "../../../ui/format/date-time.ts";
import { UpgradeStatus, UpgradeTransfer } from "./upgrade-progress.tsx";

/** The devices of one campaign with their upgrade status, refreshed while the campaign moves. */
export function CampaignDevices({ campaignId }: { campaignId: number }) {
  const { t } = useTranslation(["ota", "enums"]);
  const [status, setStatus] = useState<string>("all");
  const [page, setPage] = useState({ current: 1, size: 10 });
  const query = { id: campaignId, ...page, ...(status === "all" ? {} : { status: Number(status) }) };
  const devices = useQuery({
    queryKey: ["ota-campaign-devices", query],
    queryFn: () => call(API.ota.devices, { query }),
    refetchInterval: 2000,
  });
  return (
    <Space direction="vertical" style={{ width: "100%" }} data-testid={`campaign-devices-${campaignId}`}>
      <Segmented
        value={status}
        onChange={(v) => {
          setStatus(v);
          setPage((p) => ({ ...p, current: 1 }));
        }}
        options={[
          { value: "all", label: t("ota:total") },
          ...[0, 1, 2, 3, 4].map((s) => ({ value: String(s), label: t(`enums:updateStatusFilter.${s}`) })),
        ]}
      />
      <Table<UpgradeRecord>
        data-testid={`campaign-devices-table-${campaignId}`}
        rowKey="id"
        size="small"
        loading={devices.isPending}
        dataSource={devices.data?.records ?? []}
        pagination={{
          current: page.current,
          pageSize: page.size,
          total: devices.data?.total ?? 0,
          onChange: (current, size) => setPage({ current, size }),
        }}
        columns={[
          {
            key: "sn",
            title: t("ota:sn"),
            render: (_, r) => (
              <a href={`#/device/details/${r.deviceId}?tab=upgrades`} data-testid={`campaign-device-${r.sn}`}>
                {r.sn}
              </a>
            ),
          },
          { key: "status", title: t("ota:status"), render: (_, r) => <UpgradeStatus record={r} /> },
          { key: "transfer", title: `${t("ota:bytes")} · ${t("ota:crc")}`, render: (_, r) => <UpgradeTransfer record={r} /> },
          { key: "fromVersion", dataIndex: "fromVersion", title: t("ota:fromVersion"), render: (v) => v ?? "—" },
          {
            key: "updateTime",
            title: t("ota:updateTime"),
            render: (_, r) => formatDateTime(r.finishTime ?? r.updateTime),
          },
        ]}
      />
    </Space>
  );
}
