import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Col, Row, Statistic } from "antd";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { ApiError, call } from "../../../api/client.ts";
import { todayIn } from "../../../ui/format/date-time.ts";
import { useDevice } from "../../devices/hooks/use-device.ts";
import { ClearProfitButton } from "./clear-profit-button.tsx";
import { TariffEditor } from "./tariff-editor.tsx";

/**
 * The electricity prices of the device's user (buy and sell periods covering the day) and the
 * revenue they give today. Without a bound user (known from the device's record) the page says so
 * and offers nothing to edit, asking the server for no prices it would refuse.
 */
export function TariffPanel({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation(["tariffs", "settings", "schedules", "errors"]);
  const client = useQueryClient();
  const device = useDevice(deviceId);
  // Unknown while the record loads; a caller who may not read the record asks for the prices.
  const bound = device.data ? device.data.ownerId !== null : device.error ? true : null;
  const tariff = useQuery({
    queryKey: ["device-tariff", deviceId],
    queryFn: () => call(API.tariff.ofDevice, { query: { deviceId } }),
    enabled: bound === true,
    retry: false,
  });
  // Today is the device's today, in its own time zone (the same reading the settings panel loads).
  const live = useQuery({
    queryKey: ["device-live", deviceId],
    queryFn: () => call(API.deviceTelemetry.latest, { query: { deviceId, values: "0" } }),
  });
  const today = live.data ? todayIn(live.data.timeZone) : null;
  const revenue = useQuery({
    queryKey: ["device-revenue", deviceId, today],
    queryFn: () => call(API.tariff.revenue, { query: { deviceId, startDate: today ?? "", endDate: today ?? "" } }),
    enabled: today !== null && bound === true,
  });

  if (bound === false) {
    return <Alert type="info" showIcon title={t("tariffs:noUserBound")} data-testid="tariff-unavailable" />;
  }
  if (tariff.error) {
    return (
      <Alert
        type="warning"
        showIcon
        title={tariff.error instanceof ApiError ? tariff.error.message : t("errors:internal")}
        data-testid="tariff-unavailable"
      />
    );
  }
  if (!tariff.data) return null;
  const day = revenue.data?.days[0];
  return (
    <div data-testid="tariff-panel">
      {tariff.data.isDefault && <Alert type="info" showIcon title={t("tariffs:usingDefault")} style={{ marginBottom: 16 }} />}
      <TariffEditor
        tariff={tariff.data}
        onSaved={() =>
          Promise.all([
            client.invalidateQueries({ queryKey: ["device-tariff", deviceId] }),
            client.invalidateQueries({ queryKey: ["device-revenue", deviceId] }),
          ])
        }
      />
      <Row gutter={24} style={{ marginTop: 24 }}>
        <Col>
          <Statistic
            title={t("tariffs:revenueToday")}
            value={day?.revenue ?? 0}
            precision={2}
            suffix={revenue.data?.currency}
            data-testid="revenue-today"
          />
        </Col>
        <Col>
          <Statistic title={t("tariffs:cost")} value={day?.cost ?? 0} precision={2} />
        </Col>
        <Col>
          <Statistic title={t("tariffs:income")} value={day?.income ?? 0} precision={2} />
        </Col>
        <Col style={{ alignSelf: "center" }}>
          <ClearProfitButton deviceId={deviceId} />
        </Col>
      </Row>
    </div>
  );
}
