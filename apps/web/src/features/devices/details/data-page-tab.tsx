import { ReloadOutlined } from "@ant-design/icons";
import { Alert, Button, Table } from "antd";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../api/client.ts";
import { useRegisterFormat } from "../../device-live/components/page-read-panel.tsx";
import { usePageRead } from "../../device-live/hooks/use-device-live.ts";
import type { DeviceTabProps } from "./tab-registry.ts";

/**
 * A data tab (setting params, monitor data, meter data, BMS data…): asks the device for its live
 * page when opened and lists the values the caller's audience may view, labelled from the catalogue.
 */
export default function DataPageTab({ device, live, page }: DeviceTabProps & { page: number }) {
  const { t } = useTranslation(["devices", "deviceLive", "registers", "errors"]);
  const read = usePageRead(device.id);
  const format = useRegisterFormat();
  const offline = (live?.onlineStatus ?? device.onlineStatus) === 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: read once per page and device when opened
  useEffect(() => {
    if (!offline) read.mutate(page);
  }, [page, device.id, offline]);

  if (offline) return <Alert type="warning" showIcon title={t("deviceOffline")} data-testid="data-tab-offline" />;
  const rows = read.data ? Object.entries(read.data.values).map(([id, value]) => ({ id, value })) : [];
  return (
    <>
      <Button icon={<ReloadOutlined />} loading={read.isPending} onClick={() => read.mutate(page)} style={{ marginBottom: 12 }}>
        {t("deviceLive:pageRead.read")}
      </Button>
      {read.error && (
        <Alert type="error" showIcon title={read.error instanceof ApiError ? read.error.message : t("errors:internal")} />
      )}
      {read.data && (
        <Table
          size="small"
          rowKey="id"
          data-testid={`data-page-${page}`}
          pagination={{ pageSize: 25, showSizeChanger: false }}
          dataSource={rows}
          columns={[
            {
              title: t("deviceLive:pageRead.register"),
              dataIndex: "id",
              render: (id: string) => t(`registers:${id}`, { defaultValue: id }),
            },
            {
              title: t("deviceLive:pageRead.value"),
              dataIndex: "value",
              render: (v: number | string | null, row) => format(row.id, v),
            },
          ]}
        />
      )}
    </>
  );
}
