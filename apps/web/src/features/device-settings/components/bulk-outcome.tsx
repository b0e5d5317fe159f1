import { WRITE_STATES, type WriteRecord } from "@ess/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Alert, Space, Table, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { ApiError, call } from "../../../api/client.ts";
import { formatDateTime } from "../../../ui/format/date-time.ts";
import { STATE_COLOUR } from "./write-records.tsx";

const POLL_MS = 2000;
const unfinished = (counts: Record<string, number>) => (counts.queued ?? 0) + (counts.sent ?? 0) > 0;

/**
 * A bulk operation's outcome per device, polled while any device's record is still queued or sent:
 * counts by state and each device's record with the device's (translated) reason for a refusal.
 */
export function BulkOutcome({ bulkId }: { bulkId: number }) {
  const { t } = useTranslation(["bulk", "settings", "errors"]);
  const [page, setPage] = useState({ current: 1, size: 20 });
  const outcome = useQuery({
    queryKey: ["bulk-outcome", bulkId, page],
    queryFn: () => call(API.deviceSettings.bulkOutcome, { query: { bulkId, ...page } }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (!q.state.data || unfinished(q.state.data.counts) ? POLL_MS : false),
  });
  if (outcome.error) {
    return (
      <Alert type="error" showIcon title={outcome.error instanceof ApiError ? outcome.error.message : t("errors:internal")} />
    );
  }
  const counts = outcome.data?.counts ?? {};
  return (
    <div data-testid="bulk-outcome">
      <Space wrap style={{ marginBottom: 12 }}>
        {WRITE_STATES.map((s) => (
          <Tag key={s} color={STATE_COLOUR[s]} data-testid={`bulk-count-${s}`}>
            {t(`settings:states.${s}`)}: {counts[s] ?? 0}
          </Tag>
        ))}
        {outcome.data && !unfinished(counts) && (
          <Tag color="blue" data-testid="bulk-finished">
            {t("bulk:outcome.finished")}
          </Tag>
        )}
      </Space>
      <Table<WriteRecord & { sn: string }>
        size="small"
        rowKey="id"
        loading={outcome.isPending}
        dataSource={outcome.data?.records ?? []}
        data-testid="bulk-outcome-table"
        pagination={{
          current: page.current,
          pageSize: page.size,
          total: outcome.data?.total ?? 0,
          onChange: (current, size) => setPage({ current, size }),
        }}
        columns={[
          { title: t("bulk:outcome.sn"), dataIndex: "sn" },
          {
            title: t("settings:records.state"),
            dataIndex: "state",
            render: (s: WriteRecord["state"], r) => (
              <Tag color={STATE_COLOUR[s]} data-testid={`bulk-state-${r.sn}`}>
                {t(`settings:states.${s}`)}
              </Tag>
            ),
          },
          { title: t("settings:records.reason"), dataIndex: "refusalText", render: (v: string | null) => v ?? "" },
          {
            title: t("bulk:outcome.finishedAt"),
            dataIndex: "finishedAt",
            render: (ms: number | null) => formatDateTime(ms),
          },
        ]}
      />
    </div>
  );
}
