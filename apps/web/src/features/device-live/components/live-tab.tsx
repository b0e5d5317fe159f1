import { Alert, Descriptions, Flex } from "antd";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../../ui/format/date-time.ts";
import type { DeviceTabProps } from "../../devices/details/tab-registry.ts";
import { LiveQuantities } from "./live-quantities.tsx";
import { PageReadPanel } from "./page-read-panel.tsx";

/**
 * The device details' live data: when the newest reading was taken, its key quantities (changing as
 * the device reports, through the gateway's pushes) and a read of any live page of the device.
 */
export default function LiveTab({ device, live }: DeviceTabProps) {
  const { t } = useTranslation(["deviceLive"]);
  const time = (ms: number | null | undefined) => formatDateTime(ms);
  const offline = (live?.onlineStatus ?? device.onlineStatus) === 0;
  return (
    <Flex vertical gap={12} data-testid="device-live">
      <Descriptions size="small" column={{ xs: 1, md: 2 }}>
        <Descriptions.Item label={t("lastSeen")}>{time(live?.lastSeenAt)}</Descriptions.Item>
        <Descriptions.Item label={t("readingAt")}>
          <span data-testid="reading-time">{time(live?.latest?.ts)}</span>
        </Descriptions.Item>
      </Descriptions>
      {offline && <Alert type="warning" showIcon title={t("offline")} data-testid="device-offline" />}
      {live?.latest ? <LiveQuantities latest={live.latest} /> : <Alert type="info" title={t("noReading")} />}
      <PageReadPanel deviceId={device.id} phaseType={device.phaseType} />
    </Flex>
  );
}
