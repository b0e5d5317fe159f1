import { Result, Space, Spin, Tabs } from "antd";
import { Suspense } from "react";
import { useTranslation } from "react-i18next";
import { useParams, useSearchParams } from "react-router";
import { ApiError } from "../../../api/client.ts";
import { useTabSubject } from "../../../app/layout/use-tab-label.ts";
import { useCan } from "../../../ui/crud/index.ts";
import { PageLoading } from "../../../ui/page-loading.tsx";
import { useDeviceLive } from "../../device-live/hooks/use-device-live.ts";
import { ConnectionPanel } from "../components/connection-panel.tsx";
import { DeviceHeader } from "../components/device-header.tsx";
import { EnergyFlow } from "../components/energy-flow.tsx";
import { DEVICE_TABS } from "../details/tab-registry.ts";
import { useDevice, useDeviceValues } from "../hooks/use-device.ts";

/**
 * Device details (/device/details/:deviceId): header, connection status, the live energy flow and
 * the tabs every feature registers (see details/tab-registry.ts).
 */
export default function DeviceDetailsPage() {
  const deviceId = Number(useParams().deviceId);
  // ?tab=<key> opens that tab (a campaign's device opens on its upgrade records).
  const [params] = useSearchParams();
  const namespaces = ["devices", "enums", "errors", ...new Set(DEVICE_TABS.flatMap((tab) => tab.ns ?? []))];
  const { t } = useTranslation(namespaces);
  const can = useCan();
  const device = useDevice(deviceId);
  const live = useDeviceLive(deviceId);
  const values = useDeviceValues(deviceId);
  // Two open devices' tabs (and the page title) say which device each one is.
  useTabSubject(device.data ? device.data.name || device.data.sn : null);

  if (device.isPending) return <PageLoading />;
  if (device.error) {
    const message = device.error instanceof ApiError ? device.error.message : t("errors:internal");
    return <Result status="warning" title={message} data-testid="device-details-error" />;
  }
  const d = device.data;
  const tabs = DEVICE_TABS.filter((tab) => can(tab.permission) && (!tab.visible || tab.visible(d)));
  return (
    <Space orientation="vertical" style={{ width: "100%", padding: 16 }} size={12} data-testid="device-details">
      <DeviceHeader device={d} onlineStatus={live.data?.onlineStatus ?? d.onlineStatus} values={values.data?.latest?.values} />
      <ConnectionPanel device={d} live={live.data} values={values.data?.latest?.values} />
      <EnergyFlow live={live.data} loading={live.isPending} />
      <Tabs
        data-testid="device-tabs"
        defaultActiveKey={tabs.some((tab) => tab.key === params.get("tab")) ? (params.get("tab") as string) : undefined}
        destroyOnHidden
        items={tabs.map((tab) => ({
          key: tab.key,
          label: t(tab.label),
          children: (
            <Suspense fallback={<Spin />}>
              <tab.component device={d} live={live.data} />
            </Suspense>
          ),
        }))}
      />
    </Space>
  );
}
