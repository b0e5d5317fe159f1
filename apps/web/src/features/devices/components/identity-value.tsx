import { InfoCircleOutlined } from "@ant-design/icons";
import { Space, Tooltip, Typography } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/**
 * One identity value of a device (model, rated power, country, battery) with where it comes from:
 * the device's report wins over what staff typed (domain `shownIdentityValue`); when the two
 * differ, what was typed is shown beside it, so a wrong registration is seen and can be fixed.
 */
export function IdentityValue({
  testId,
  reported,
  registered,
  show = (v) => String(v),
}: {
  testId: string;
  reported: string | number | null;
  registered?: string | number | null;
  show?: (value: string | number) => ReactNode;
}) {
  const { t } = useTranslation("devices");
  const value = reported ?? registered ?? null;
  if (value === null) return <span data-testid={testId}>—</span>;
  const source = reported !== null ? "device" : "registration";
  const differs = reported !== null && registered !== null && registered !== undefined && registered !== reported;
  return (
    <Space size={4} wrap data-testid={testId} data-source={source}>
      <span>{show(value)}</span>
      <Tooltip title={t(source === "device" ? "header.fromDevice" : "header.fromRegistration")}>
        <InfoCircleOutlined
          style={{ color: "#8c8c8c", fontSize: 12 }}
          aria-label={t(source === "device" ? "header.fromDevice" : "header.fromRegistration")}
        />
      </Tooltip>
      {differs && (
        <Typography.Text type="warning" data-testid={`${testId}-registered`}>
          {t("header.registeredAs", { value: show(registered as string | number) })}
        </Typography.Text>
      )}
    </Space>
  );
}
