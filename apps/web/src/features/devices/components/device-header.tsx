import type { DeviceRecord } from "@ess/contracts";
import { FIRMWARE_VERSION_REGISTERS, type FirmwarePart, versionFromRegister } from "@ess/domain";
import { Card, Descriptions, Space, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../../ui/format/date-time.ts";
import { GridControlTag } from "./grid-control-tag.tsx";
import { IdentityValue } from "./identity-value.tsx";

const STATUS_COLOUR = { 0: "green", 1: "gold", 2: "default", 3: "red" } as const;

/**
 * The details header: name, SN, status, what the device is (model, rated power, country, battery;
 * each marked as reported by the device or as registered), versions, owner, installer, binding
 * times, time zone.
 */
export function DeviceHeader({
  device,
  onlineStatus,
  values,
}: {
  device: DeviceRecord;
  onlineStatus: number;
  values: Record<string, number | string | null> | undefined;
}) {
  const { t } = useTranslation(["devices", "enums", "gridCentre"]);
  const time = (iso: string | null) => formatDateTime(iso);
  const status = onlineStatus === 0 ? 2 : device.status === 2 ? 0 : device.status;
  // The newest reading's own versions, for a record written before the device first reported them.
  const reported = (part: FirmwarePart) => {
    for (const product of ["three", "single"] as const) {
      const id = FIRMWARE_VERSION_REGISTERS[product][part];
      const value = id ? values?.[id] : undefined;
      if (typeof value === "number" && value > 0) return versionFromRegister(value);
    }
    return "";
  };
  const v = {
    dongle: device.versions.dongle || reported("dongle"),
    mcu: device.versions.mcu || reported("mcu"),
    dsp: device.versions.dsp || reported("dsp"),
    battery: device.versions.battery || reported("battery"),
  };
  return (
    <Card size="small">
      <Space align="center" wrap>
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="device-title">
          {device.name || device.sn}
        </Typography.Title>
        <Tag color={STATUS_COLOUR[status as 0 | 1 | 2 | 3]} data-testid="device-status">
          {t(`enums:devStatusFilter.${status}`)}
        </Tag>
        <Tag data-testid="device-online">{t(`enums:onlineStatusFilter.${onlineStatus}`)}</Tag>
        <GridControlTag control={device.gridControl} t={t} testId="device-grid-control" />
      </Space>
      <Descriptions size="small" column={{ xs: 1, md: 2, xl: 4 }} style={{ marginTop: 12 }} data-testid="device-header">
        <Descriptions.Item label={t("columns.sn")}>{device.sn}</Descriptions.Item>
        <Descriptions.Item label={t("columns.model")}>
          <IdentityValue testId="device-model" reported={device.reported.model} registered={device.registered.model} />
        </Descriptions.Item>
        <Descriptions.Item label={t("columns.ratedPower")}>
          <IdentityValue
            testId="device-rated-power"
            reported={device.reported.ratedPower}
            registered={device.registered.ratedPower}
          />
        </Descriptions.Item>
        <Descriptions.Item label={t("columns.countryCode")}>
          <IdentityValue
            testId="device-country"
            reported={device.reported.countryCode}
            registered={device.registered.countryCode}
            show={(v) => t(`enums:countryCodeFilter.${v}`)}
          />
        </Descriptions.Item>
        <Descriptions.Item label={t("columns.batteryChemistry")}>
          <IdentityValue
            testId="device-battery-chemistry"
            reported={device.batteryChemistry}
            show={(v) => t(`enums:batteryChemistry.${v}`)}
          />
        </Descriptions.Item>
        <Descriptions.Item label={t("columns.batteryType")}>
          <span data-testid="device-battery-type">
            {device.batteryType === null ? "—" : t(`enums:hvBatteryType.${device.batteryType}`)}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t("columns.timeZone")}>{device.timeZone ?? "—"}</Descriptions.Item>
        <Descriptions.Item label={t("header.dongleVersion")}>{v.dongle || "—"}</Descriptions.Item>
        <Descriptions.Item label={t("header.mcuVersion")}>{v.mcu || "—"}</Descriptions.Item>
        <Descriptions.Item label={t("header.dspVersion")}>{v.dsp || "—"}</Descriptions.Item>
        <Descriptions.Item label={t("header.batteryVersion")}>{v.battery || "—"}</Descriptions.Item>
        <Descriptions.Item label={t("columns.owner")}>{device.ownerName ?? "—"}</Descriptions.Item>
        <Descriptions.Item label={t("header.userBoundAt")}>{time(device.userBoundAt)}</Descriptions.Item>
        <Descriptions.Item label={t("columns.installer")}>{device.installerName ?? "—"}</Descriptions.Item>
        <Descriptions.Item label={t("columns.installedAt")}>{time(device.installedAt)}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
