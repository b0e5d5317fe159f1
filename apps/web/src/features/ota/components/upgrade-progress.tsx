import type { UpgradeRecord } from "@ess/contracts";
import { Progress, Space, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";

const STATUS_COLOUR = ["default", "processing", "blue", "red", "green"] as const;

/** One upgrade's status as the console shows it: the status tag, then progress or the failure cause. */
export function UpgradeStatus({ record }: { record: UpgradeRecord }) {
  const { t } = useTranslation(["ota", "enums"]);
  return (
    <Space direction="vertical" size={2} data-testid={`upgrade-status-${record.id}`} data-status={record.status}>
      <Tag color={STATUS_COLOUR[record.status]}>{t(`enums:updateStatusFilter.${record.status}`)}</Tag>
      {record.status === 2 && <Progress percent={Math.round(record.percent)} size="small" style={{ width: 140 }} />}
      {record.status === 3 && record.cause && (
        <Typography.Text type="danger" data-testid={`upgrade-cause-${record.id}`}>
          {t(`ota:cause.${record.cause}`)}
          {record.resultCode !== null ? ` (${record.resultCode})` : ""}
        </Typography.Text>
      )}
    </Space>
  );
}

/** Bytes and CRC sent and received, as the original console showed them while upgrading. */
export function UpgradeTransfer({ record }: { record: UpgradeRecord }) {
  return (
    <Space direction="vertical" size={0}>
      <span>
        {record.bytesSent} / {record.bytesReceived} ({record.bytesTotal})
      </span>
      <span>
        {record.crcSent ?? "—"} / {record.crcReceived ?? "—"}
      </span>
    </Space>
  );
}
