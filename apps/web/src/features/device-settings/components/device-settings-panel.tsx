import { SCHEDULE_LAYOUT, SETTINGS_PAGES } from "@ess/domain";
import { useQuery } from "@tanstack/react-query";
import { Card, Result, Tabs } from "antd";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { ApiError, call } from "../../../api/client.ts";
import { PageLoading } from "../../../ui/page-loading.tsx";
import { CommandButtons } from "./command-buttons.tsx";
import { GeneratorPanel } from "./generator-panel.tsx";
import { ModeSwitchRecords } from "./mode-switch-records.tsx";
import { ScheduleView } from "./schedule/schedule-view.tsx";
import { SelfCheckPanel } from "./self-check-panel.tsx";
import { SettingsForm } from "./settings-form.tsx";
import { TariffPanel } from "./tariff-panel.tsx";
import { WriteRecords } from "./write-records.tsx";

/**
 * Everything that changes a device: its settings pages, commands, change records and electricity
 * prices. A panel of its own so the device details page can show it as a tab.
 */
export function DeviceSettingsPanel({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation(["settings", "deviceLive", "errors"]);
  const device = useQuery({
    queryKey: ["device-live", deviceId],
    queryFn: () => call(API.deviceTelemetry.latest, { query: { deviceId, values: "0" } }),
  });
  if (device.isPending) return <PageLoading />;
  if (device.error) {
    return <Result status="warning" title={device.error instanceof ApiError ? device.error.message : t("errors:internal")} />;
  }
  const product = device.data.phaseType === 1 ? "single" : "three";
  return (
    <Card title={t("settings:title", { name: device.data.name || device.data.sn })} data-testid="device-settings">
      <Tabs
        destroyOnHidden
        items={[
          ...SETTINGS_PAGES[product].map((page) => ({
            key: `page-${page}`,
            label: <span data-testid={`settings-tab-${page}`}>{t(`deviceLive:pages.${page}`)}</span>,
            children:
              page === SCHEDULE_LAYOUT[product].page ? (
                <ScheduleView deviceId={deviceId} product={product} />
              ) : (
                <SettingsForm deviceId={deviceId} page={page} product={product} />
              ),
          })),
          {
            key: "generator",
            label: <span data-testid="settings-tab-generator">{t("settings:tabs.generator")}</span>,
            children: <GeneratorPanel deviceId={deviceId} />,
          },
          {
            key: "commands",
            label: <span data-testid="settings-tab-commands">{t("settings:tabs.commands")}</span>,
            children: <CommandButtons deviceId={deviceId} />,
          },
          {
            key: "records",
            label: <span data-testid="settings-tab-records">{t("settings:tabs.records")}</span>,
            children: <WriteRecords deviceId={deviceId} />,
          },
          {
            key: "selfCheck",
            label: <span data-testid="settings-tab-self-check">{t("settings:tabs.selfCheck")}</span>,
            children: <SelfCheckPanel deviceId={deviceId} />,
          },
          {
            key: "modeSwitches",
            label: <span data-testid="settings-tab-mode-switches">{t("settings:tabs.modeSwitches")}</span>,
            children: <ModeSwitchRecords deviceId={deviceId} />,
          },
          {
            key: "tariff",
            label: <span data-testid="settings-tab-tariff">{t("settings:tabs.tariff")}</span>,
            children: <TariffPanel deviceId={deviceId} />,
          },
        ]}
      />
    </Card>
  );
}
