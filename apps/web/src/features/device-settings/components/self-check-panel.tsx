import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Popconfirm, Space, Table } from "antd";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { ApiError, call } from "../../../api/client.ts";
import { downloadExport } from "../../../ui/crud/index.ts";

type Check = { id: number; startedAt: number; startedBy: string; state: number; finishedAt: number | null };

/** Device self-check: start one (with confirmation), follow its state, export the report. */
export function SelfCheckPanel({ deviceId }: { deviceId: number }) {
  const { t, i18n } = useTranslation(["settings", "enums", "errors"]);
  const client = useQueryClient();
  const checks = useQuery({
    queryKey: ["self-checks", deviceId],
    queryFn: () => call(API.selfCheck.page, { query: { deviceId, size: 20 } }),
    // While one is checking, follow it.
    refetchInterval: (q) => (q.state.data?.records.some((r) => r.state === 1) ? 3000 : false),
  });
  const start = useMutation({
    mutationFn: () => call(API.selfCheck.start, { body: { deviceId } }),
    onSettled: () => client.invalidateQueries({ queryKey: ["self-checks", deviceId] }),
  });
  const time = (ms: number | null) => (ms === null ? "—" : new Date(ms).toLocaleString(i18n.language));
  return (
    <Space direction="vertical" style={{ width: "100%" }} data-testid="self-check">
      <Space>
        <Popconfirm title={t("settings:selfCheck.confirm")} onConfirm={() => start.mutate()}>
          <Button type="primary" loading={start.isPending} data-testid="self-check-start">
            {t("settings:selfCheck.start")}
          </Button>
        </Popconfirm>
        <Button onClick={() => void downloadExport(API.selfCheck.report, { deviceId }, `self-check-${deviceId}.csv`)}>
          {t("settings:selfCheck.report")}
        </Button>
      </Space>
      {start.error && (
        <Alert type="error" showIcon title={start.error instanceof ApiError ? start.error.message : t("errors:internal")} />
      )}
      <Table<Check>
        size="small"
        rowKey="id"
        loading={checks.isPending}
        dataSource={checks.data?.records ?? []}
        pagination={false}
        columns={[
          { title: t("settings:selfCheck.columns.startedAt"), dataIndex: "startedAt", render: time },
          { title: t("settings:selfCheck.columns.startedBy"), dataIndex: "startedBy" },
          {
            title: t("settings:selfCheck.columns.state"),
            dataIndex: "state",
            render: (s: number) => t(`enums:selfCheckFilter.${s}`),
          },
          { title: t("settings:selfCheck.columns.finishedAt"), dataIndex: "finishedAt", render: time },
        ]}
      />
    </Space>
  );
}
