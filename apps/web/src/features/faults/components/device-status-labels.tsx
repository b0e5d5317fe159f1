import { useQuery } from "@tanstack/react-query";
import { Space, Spin, Tag } from "antd";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";

/** A device's status labels: error status and the DSP, BMS and meter communication. */
export function DeviceStatusLabels({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation("alarms");
  const labels = useQuery({
    queryKey: ["crud-alarm-status", deviceId],
    queryFn: () => call(API.alarm.statusLabels, { query: { deviceId } }),
  });
  if (!labels.data) return <Spin size="small" />;
  const d = labels.data;
  const flag = (name: "dsp" | "bms" | "meter") =>
    d[name] === null ? null : (
      <Tag color={d[name] === 1 ? "green" : "red"} data-testid={`status-${name}`}>
        {t(`statusLabels.${name}${d[name]}`)}
      </Tag>
    );
  return (
    <Space wrap data-testid="device-status-labels">
      {d.deviceStatus === 3 && <Tag color="red">{t("statusLabels.deviceStatus3")}</Tag>}
      {flag("dsp")}
      {flag("bms")}
      {flag("meter")}
    </Space>
  );
}
