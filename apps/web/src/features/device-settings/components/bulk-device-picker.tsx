import type { DeviceRecord } from "@ess/contracts";
import { Alert, Button, Space, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { SearchBar, useCrudList } from "../../../ui/crud/index.ts";
import { deviceList } from "../../devices/pages/device-list.config.tsx";

/** The bulk API's own ceiling on one operation. */
export const BULK_MAX_DEVICES = 10_000;
const FETCH_PAGE = 500;

/** The device list's filters and paging, under a cache key of its own. */
const pickerList = { ...deviceList, id: "bulk-devices" };

/**
 * Which devices a bulk operation goes to: the device list's own filters (inside the caller's data
 * scope, as the server lists them), then rows ticked one by one or every device the filters match.
 */
export function BulkDevicePicker({ selected, onChange }: { selected: number[]; onChange: (ids: number[]) => void }) {
  const { t } = useTranslation(["bulk", "devices", "enums", "crud"]);
  const list = useCrudList<DeviceRecord>(pickerList);
  const [collecting, setCollecting] = useState(false);
  const [tooMany, setTooMany] = useState(false);
  const total = list.page?.total ?? 0;

  /** Every device the current filters match, page by page (the list route pages at most 500). */
  const selectAllMatching = async () => {
    setCollecting(true);
    setTooMany(false);
    try {
      const ids: number[] = [];
      for (let current = 1; ; current++) {
        const page = await call(API.device.page, { query: { ...list.state.filters, current, size: FETCH_PAGE } as never });
        ids.push(...page.records.map((d) => d.id));
        if (current >= page.pages || ids.length > BULK_MAX_DEVICES) break;
      }
      if (ids.length > BULK_MAX_DEVICES) setTooMany(true);
      else onChange(ids);
    } finally {
      setCollecting(false);
    }
  };

  return (
    <div data-testid="bulk-devices">
      <SearchBar id="bulk-devices" filters={deviceList.filters ?? []} onSearch={list.search} />
      <Space style={{ marginBottom: 12 }} wrap>
        <Button
          onClick={() => void selectAllMatching()}
          loading={collecting}
          disabled={total === 0}
          data-testid="bulk-select-all"
        >
          {t("bulk:devices.selectAll", { count: total })}
        </Button>
        <Button onClick={() => onChange([])} disabled={selected.length === 0} data-testid="bulk-clear">
          {t("bulk:devices.clear")}
        </Button>
        <Typography.Text strong data-testid="bulk-selected">
          {t("bulk:devices.selected", { count: selected.length })}
        </Typography.Text>
      </Space>
      {tooMany && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title={t("bulk:devices.tooMany", { max: BULK_MAX_DEVICES })}
        />
      )}
      <Table<DeviceRecord>
        size="small"
        rowKey="id"
        loading={list.loading}
        dataSource={list.page?.records ?? []}
        data-testid="bulk-devices-table"
        rowSelection={{
          selectedRowKeys: selected,
          preserveSelectedRowKeys: true,
          onChange: (keys) => onChange(keys.map(Number)),
        }}
        pagination={{
          current: list.state.current,
          pageSize: list.state.size,
          total,
          showSizeChanger: true,
          onChange: list.paginate,
        }}
        columns={[
          { title: t("devices:columns.sn"), dataIndex: "sn" },
          { title: t("devices:columns.name"), dataIndex: "name" },
          { title: t("devices:columns.model"), dataIndex: "model" },
          {
            title: t("devices:columns.phaseType"),
            dataIndex: "phaseType",
            render: (v: number | null) => (v ? t(`enums:phaseType.${v}`) : "—"),
          },
          {
            title: t("devices:columns.onlineStatus"),
            dataIndex: "onlineStatus",
            render: (v: number) => <Tag color={v === 1 ? "green" : undefined}>{t(`enums:onlineStatusFilter.${v}`)}</Tag>,
          },
        ]}
      />
    </div>
  );
}
