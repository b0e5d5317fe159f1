import { Alert, Card, Descriptions, Result, Space, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { ApiError } from "../../../api/client.ts";
import { useCan } from "../../../ui/crud/index.ts";
import { PageLoading } from "../../../ui/page-loading.tsx";
import { OtaSendButton, UpgradeRecords } from "../../ota/index.ts";
import { LiveQuantities } from "../components/live-quantities.tsx";
import { PageReadPanel } from "../components/page-read-panel.tsx";
import { useDeviceLive } from "../hooks/use-device-live.ts";

const STATUS_COLOUR = { 0: "default", 1: "green", 2: "blue" } as const;

/**
 * A device's live view: online status, the newest reading (changing as the device reports) and
 * page reads. Kept to what telemetry serves; the full device pages come with device management.
 */
export default function DeviceLivePage() {
  const { t, i18n } = useTranslation(["deviceLive", "enums", "errors", "ota"]);
  const can = useCan();
  const deviceId = Number(useParams().deviceId);
  const live = useDeviceLive(deviceId);

  if (live.isPending) return <PageLoading />;
  if (live.error) {
    const message = live.error instanceof ApiError ? live.error.message : t("errors:internal");
    return <Result status="warning" title={message} data-testid="device-live-error" />;
  }
  const d = live.data;
  const time = (ms: number | null) => (ms === null ? "—" : new Date(ms).toLocaleString(i18n.language));
  const status = d.onlineStatus as 0 | 1 | 2;

  return (
    <main style={{ padding: 24, display: "grid", gap: 16 }}>
      <Card>
        <Space align="center" wrap>
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="device-title">
            {d.name || d.sn}
          </Typography.Title>
          <Tag color={STATUS_COLOUR[status]} data-testid="device-status">
            {t(`enums:onlineStatusFilter.${status}`)}
          </Tag>
        </Space>
        <Descriptions size="small" column={{ xs: 1, md: 3 }} style={{ marginTop: 12 }}>
          <Descriptions.Item label={t("sn")}>{d.sn}</Descriptions.Item>
          <Descriptions.Item label={t("timeZone")}>{d.timeZone ?? "—"}</Descriptions.Item>
          <Descriptions.Item label={t("lastSeen")}>{time(d.lastSeenAt)}</Descriptions.Item>
          <Descriptions.Item label={t("readingAt")}>
            <span data-testid="reading-time">{time(d.latest?.ts ?? null)}</span>
          </Descriptions.Item>
        </Descriptions>
      </Card>
      {status === 0 && <Alert type="warning" showIcon title={t("offline")} data-testid="device-offline" />}
      {d.latest ? <LiveQuantities latest={d.latest} /> : <Alert type="info" title={t("noReading")} />}
      <PageReadPanel deviceId={d.deviceId} phaseType={d.phaseType} />
      {can("ota.view") && (
        <Card title={t("ota:records")} extra={<OtaSendButton deviceId={d.deviceId} sn={d.sn} />}>
          <UpgradeRecords deviceId={d.deviceId} />
        </Card>
      )}
    </main>
  );
}
