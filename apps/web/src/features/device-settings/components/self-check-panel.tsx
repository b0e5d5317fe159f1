import type { SelfCheckRecord } from "@ess/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Descriptions, Empty, Progress, Space, Table, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { ApiError, call } from "../../../api/client.ts";
import { ConfirmPopover } from "../../../ui/confirm.tsx";
import { downloadExport } from "../../../ui/crud/index.ts";
import { formatDateTime } from "../../../ui/format/date-time.ts";
import { SelfCheckItems } from "./self-check-items.tsx";

const STATE_COLOUR: Record<number, string> = { 0: "default", 1: "processing", 2: "error", 3: "success" };

/**
 * Device self-check: start one (with confirmation); the latest check with its progress while it
 * runs and what it tested with each result and its values; the earlier checks, each opening to
 * its items; the report as CSV.
 */
export function SelfCheckPanel({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation(["settings", "enums", "errors"]);
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
  const time = (ms: number | null) => formatDateTime(ms);
  // A check failed by the console because the device never reported its end says so.
  const stateTag = (s: number, c?: SelfCheckRecord) => (
    <Tag color={STATE_COLOUR[s]}>
      {c?.cause ? `${t(`enums:selfCheckFilter.${s}`)}: ${t(`settings:refusal.${c.cause}`)}` : t(`enums:selfCheckFilter.${s}`)}
    </Tag>
  );
  const [latest, ...earlier] = checks.data?.records ?? [];
  const running = latest?.items.find((i) => i.outcome === "running");

  return (
    <Space direction="vertical" style={{ width: "100%" }} data-testid="self-check">
      <Space>
        <ConfirmPopover title={t("settings:selfCheck.confirm")} onConfirm={() => start.mutate()}>
          <Button type="primary" loading={start.isPending} disabled={latest?.state === 1} data-testid="self-check-start">
            {t("settings:selfCheck.start")}
          </Button>
        </ConfirmPopover>
        <Button onClick={() => void downloadExport(API.selfCheck.report, { deviceId }, `self-check-${deviceId}.csv`)}>
          {t("settings:selfCheck.report")}
        </Button>
      </Space>
      {start.error && (
        <Alert type="error" showIcon title={start.error instanceof ApiError ? start.error.message : t("errors:internal")} />
      )}
      <Card size="small" title={t("settings:selfCheck.latest")} loading={checks.isPending} data-testid="self-check-latest">
        {!latest ? (
          <Empty description={t("settings:selfCheck.none")} />
        ) : (
          <Space direction="vertical" style={{ width: "100%" }}>
            <Descriptions size="small" column={{ xs: 1, md: 4 }}>
              <Descriptions.Item label={t("settings:selfCheck.columns.state")}>
                <span data-testid="self-check-state">{stateTag(latest.state, latest)}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t("settings:selfCheck.columns.startedAt")}>{time(latest.startedAt)}</Descriptions.Item>
              <Descriptions.Item label={t("settings:selfCheck.columns.startedBy")}>{latest.startedBy}</Descriptions.Item>
              <Descriptions.Item label={t("settings:selfCheck.columns.finishedAt")}>{time(latest.finishedAt)}</Descriptions.Item>
            </Descriptions>
            {latest.progress && (
              <div data-testid="self-check-progress">
                <Progress
                  percent={Math.round((latest.progress.done / Math.max(1, latest.progress.total)) * 100)}
                  status="active"
                />
                <Typography.Text type="secondary">
                  {t("settings:selfCheck.progress", latest.progress)}
                  {running ? ` · ${t(`enums:TP_0X04_14Filter.${running.item}`)}` : ""}
                </Typography.Text>
              </div>
            )}
            {latest.items.length > 0 ? (
              <SelfCheckItems items={latest.items} testId="self-check-items" />
            ) : (
              <Typography.Text type="secondary">{t("settings:selfCheck.noItems")}</Typography.Text>
            )}
          </Space>
        )}
      </Card>
      {earlier.length > 0 && (
        <Card size="small" title={t("settings:selfCheck.history")}>
          <Table<SelfCheckRecord>
            size="small"
            rowKey="id"
            dataSource={earlier}
            pagination={false}
            expandable={{
              rowExpandable: (r) => r.items.length > 0,
              expandedRowRender: (r) => <SelfCheckItems items={r.items} testId={`self-check-items-${r.id}`} />,
            }}
            columns={[
              { title: t("settings:selfCheck.columns.startedAt"), dataIndex: "startedAt", render: time },
              { title: t("settings:selfCheck.columns.startedBy"), dataIndex: "startedBy" },
              {
                title: t("settings:selfCheck.columns.state"),
                dataIndex: "state",
                render: (s: number, c: SelfCheckRecord) => stateTag(s, c),
              },
              { title: t("settings:selfCheck.columns.finishedAt"), dataIndex: "finishedAt", render: time },
            ]}
          />
        </Card>
      )}
    </Space>
  );
}
