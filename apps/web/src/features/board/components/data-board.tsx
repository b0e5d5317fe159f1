import { useQuery } from "@tanstack/react-query";
import { Alert, Card, Col, Row, Spin, Statistic, Table } from "antd";
import dayjs from "dayjs";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { type ChartOption, EChart } from "../../../ui/charts/echart.tsx";
import { formatInstant } from "../../../ui/format/date-time.ts";

/** Where the device list is in the default menu; the board's counts open it filtered. */
const DEVICE_LIST = "/device/list/index";

/**
 * The data board (spec §2): generation, purchase, sale and consumption today and in total, device
 * counts by status opening the filtered list, installations over time and by country, CO2 avoided,
 * self-sufficiency and self-consumption, and the real-time power of online devices. The server
 * works it out over the caller's own scope, so every role sees its own board.
 */
export function DataBoard() {
  const { t, i18n } = useTranslation(["board", "enums"]);
  const board = useQuery({ queryKey: ["board"], queryFn: () => call(API.board.total), refetchInterval: 60_000 });
  const byMonth = board.data?.installations.byMonth;
  const option = useMemo<ChartOption>(
    () => ({
      tooltip: { trigger: "axis" },
      grid: { left: 40, right: 20, bottom: 30, top: 20 },
      xAxis: {
        type: "category",
        data: (byMonth ?? []).map((m) => formatInstant(dayjs(`${m.month}-01`), "month", { locale: i18n.language })),
      },
      yAxis: { type: "value", minInterval: 1 },
      series: [{ name: t("installations.count"), type: "bar", data: (byMonth ?? []).map((m) => m.count) }],
    }),
    [byMonth, t, i18n.language],
  );
  if (board.isPending) return <Spin data-testid="board-loading" />;
  if (board.error) return <Alert type="error" showIcon title={(board.error as Error).message} />;
  const b = board.data;
  const number = (v: number) => v.toLocaleString(i18n.language, { maximumFractionDigits: 2 });
  const kwh = (v: number) => `${number(v)} kWh`;
  const watts = (v: number) => `${(v / 1000).toFixed(2)} kW`;
  const figure = (key: string, title: string, value: string, link?: string) => (
    <Col xs={12} md={8} xl={6} key={key}>
      <Card size="small">
        <Statistic
          title={link ? <Link to={link}>{title}</Link> : title}
          value={value}
          valueStyle={{ fontSize: 20 }}
          data-testid={`board-${key}`}
        />
      </Card>
    </Col>
  );
  return (
    <div data-testid="data-board" style={{ display: "grid", gap: 16 }}>
      <Row gutter={[16, 16]}>
        {figure("today-pv", t("today.pv"), kwh(b.today.pv))}
        {figure("total-pv", t("total.pv"), kwh(b.total.pv))}
        {figure("today-buy", t("today.buy"), kwh(b.today.buy))}
        {figure("total-buy", t("total.buy"), kwh(b.total.buy))}
        {figure("today-sell", t("today.sell"), kwh(b.today.sell))}
        {figure("total-sell", t("total.sell"), kwh(b.total.sell))}
        {figure("total-load", t("total.load"), kwh(b.total.load))}
        {figure("co2", t("co2"), `${number(b.co2Kg)} kg`)}
      </Row>
      <Row gutter={[16, 16]}>
        {figure("devices-all", t("devices.all"), String(b.devices.all), DEVICE_LIST)}
        {figure("devices-normal", t("devices.normal"), String(b.devices.normal), `${DEVICE_LIST}?status=0`)}
        {figure("devices-offline", t("devices.offline"), String(b.devices.offline), `${DEVICE_LIST}?status=2`)}
        {figure("devices-error", t("devices.error"), String(b.devices.error), `${DEVICE_LIST}?status=3`)}
      </Row>
      <Row gutter={[16, 16]}>
        {figure("self-sufficiency", t("ratios.selfSufficiency"), `${b.ratios.selfSufficiency} %`)}
        {figure("self-consumption", t("ratios.selfConsumption"), `${b.ratios.selfConsumption} %`)}
        {figure("realtime-online", t("realtime.online"), String(b.realtime.online))}
        {figure("realtime-pv", t("realtime.pvPower"), watts(b.realtime.pvPower))}
        {figure("realtime-load", t("realtime.loadPower"), watts(b.realtime.loadPower))}
        {figure("realtime-battery", t("realtime.batteryPower"), watts(b.realtime.batteryPower))}
        {figure("realtime-grid", t("realtime.gridPower"), watts(b.realtime.gridPower))}
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <Card size="small" title={t("installations.byMonth")}>
            <EChart option={option} style={{ height: 260 }} testId="board-installations" />
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card size="small" title={t("installations.byCountry")}>
            <Table
              size="small"
              rowKey={(r) => String(r.countryCode)}
              pagination={false}
              dataSource={b.installations.byCountry}
              data-testid="board-countries"
              columns={[
                {
                  title: t("installations.country"),
                  dataIndex: "countryCode",
                  render: (c: number | null) => (c === null ? t("installations.unknown") : t(`enums:countryCodeFilter.${c}`)),
                },
                { title: t("installations.count"), dataIndex: "count" },
              ]}
            />
          </Card>
        </Col>
      </Row>
    </div>
  );
}
