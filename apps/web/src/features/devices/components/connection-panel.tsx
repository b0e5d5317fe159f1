import type { DeviceLive, DeviceRecord } from "@ess/contracts";
import { Card, Col, Row, Statistic } from "antd";
import { useTranslation } from "react-i18next";

/** Register ids of the BMS and meter flags per product (three phase, single phase). */
const BMS_FLAG = ["TP_0X04_19", "bmsSign"];
const METER_FLAG = ["TP_0X04_18", "HM6_0X04_94"];

const first = (values: Record<string, number | string | null> | undefined, ids: string[]) => {
  for (const id of ids) if (values?.[id] !== undefined && values[id] !== null) return Number(values[id]);
  return null;
};

/**
 * Connection status (spec §2): dongle link (WiFi or 4G), system status, PV, BMS, grid and meter,
 * from the live state and the newest reading's values.
 */
export function ConnectionPanel({
  device,
  live,
  values,
}: {
  device: DeviceRecord;
  live: DeviceLive | undefined;
  values: Record<string, number | string | null> | undefined;
}) {
  const { t } = useTranslation(["devices", "enums"]);
  const online = (live?.onlineStatus ?? device.onlineStatus) !== 0;
  const q = live?.latest?.quantities ?? {};
  const state = q.system_state;
  const grid = q.grid_power;
  const bms = first(values, BMS_FLAG);
  const meter = first(values, METER_FLAG);
  const dongle = device.dongleType === null ? t("connection.dongle") : t(`enums:dongleType.${device.dongleType}`);
  const items = [
    { key: "dongle", title: dongle, value: t(online ? "connection.connected" : "connection.disconnected") },
    {
      key: "system",
      title: t("connection.system"),
      value:
        state === null || state === undefined || !online
          ? "—"
          : t(`enums:systemStateFilter.${state}`, { defaultValue: String(state) }),
    },
    {
      key: "pv",
      title: t("connection.pv"),
      value: !online ? "—" : t((q.pv_power ?? 0) > 0 ? "connection.generating" : "connection.idle"),
    },
    { key: "bms", title: t("connection.bms"), value: bms === null || !online ? "—" : t(`enums:BMSFilter.${bms}`) },
    {
      key: "grid",
      title: t("connection.grid"),
      value:
        grid === null || grid === undefined || !online
          ? "—"
          : t(`enums:GridStateFilter.${grid > 0 ? 3 : grid < 0 ? 2 : 1}`, { defaultValue: String(grid) }),
    },
    {
      key: "meter",
      title: t("connection.meter"),
      value: meter === null || !online ? "—" : t(`enums:meterNormalFilter.${meter}`),
    },
  ];
  return (
    <Card size="small" title={t("connection.title")} data-testid="connection-panel">
      <Row gutter={[16, 16]}>
        {items.map((i) => (
          <Col key={i.key} xs={12} md={8} xl={4}>
            <Statistic title={i.title} value={i.value} valueStyle={{ fontSize: 16 }} data-testid={`connection-${i.key}`} />
          </Col>
        ))}
      </Row>
    </Card>
  );
}
