import { DownloadOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Alert, App, Button, Card, DatePicker, Segmented, Space, Statistic, Table, Typography } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { type ChartOption, EChart } from "../../../ui/charts/echart.tsx";
import { downloadExport } from "../../../ui/crud/index.ts";
import { calendarDay, formatInstant, todayIn } from "../../../ui/format/date-time.ts";
import type { DeviceTabProps } from "./tab-registry.ts";

type Range = "day" | "month" | "year" | "custom";
const ENERGY = ["pv", "load", "buy", "sell", "charge", "discharge"] as const;
const POWER = ["pvPower", "batteryPower", "gridPower", "loadPower"] as const;
const ISO = "YYYY-MM-DD";

/** The energy query of a range: days of a month or a custom frame, months of a year. */
function energyQuery(range: Range, day: Dayjs, custom: [Dayjs, Dayjs]) {
  if (range === "year")
    return { type: "1" as const, startDate: day.startOf("year").format(ISO), endDate: day.endOf("year").format(ISO) };
  if (range === "custom") return { type: "0" as const, startDate: custom[0].format(ISO), endDate: custom[1].format(ISO) };
  if (range === "month")
    return { type: "0" as const, startDate: day.startOf("month").format(ISO), endDate: day.endOf("month").format(ISO) };
  return { type: "0" as const, startDate: day.format(ISO), endDate: day.format(ISO) };
}

/** A period the server names (a local day YYYY-MM-DD, a month YYYY-MM or a year) written the console's way. */
const formatPeriod = (period: string) =>
  period.length === 10
    ? formatInstant(calendarDay(period), "date")
    : period.length === 7
      ? formatInstant(dayjs(`${period}-01`), "month")
      : period;

/**
 * Device statistics (spec §2): a day's power curves (PV, battery, grid, load, SOC), energy bars of a
 * month, a year or a custom frame, as chart or table, with the revenue figures of the range priced
 * by the device user's tariff (or the default one) and an export of the range. Days are the
 * device's days: its today, and its curve's times, in its own time zone (as the server counts
 * them), labelled so — not the browser's.
 */
export default function StatisticsTab({ device }: DeviceTabProps) {
  const { t } = useTranslation(["devices", "statistics"]);
  const { message } = App.useApp();
  const zone = device.timeZone ?? "UTC";
  const [range, setRange] = useState<Range>("day");
  const [as, setAs] = useState<"chart" | "table">("chart");
  const [day, setDay] = useState<Dayjs>(() => calendarDay(todayIn(zone)));
  const [custom, setCustom] = useState<[Dayjs, Dayjs]>(() => [
    calendarDay(todayIn(zone)).subtract(6, "day"),
    calendarDay(todayIn(zone)),
  ]);
  const q = { deviceId: device.id, ...energyQuery(range, day, custom) };

  const curve = useQuery({
    queryKey: ["device-curve", device.id, q.startDate],
    queryFn: () => call(API.deviceTelemetry.dayCurve, { query: { deviceId: device.id, date: q.startDate } }),
    enabled: range === "day",
  });
  const energy = useQuery({
    queryKey: ["device-energy", q],
    queryFn: () => call(API.deviceTelemetry.energy, { query: q }),
    enabled: range !== "day",
  });
  const revenue = useQuery({ queryKey: ["device-revenue", q], queryFn: () => call(API.statistics.revenue, { query: q }) });

  const option = useMemo<ChartOption>(() => {
    if (range === "day") {
      const points = curve.data?.points ?? [];
      const time = (ts: number) => formatInstant(ts, "minute", { timeZone: zone });
      return {
        tooltip: { trigger: "axis" },
        legend: { top: 0 },
        grid: { left: 50, right: 50, bottom: 30, top: 60 },
        xAxis: { type: "category", data: points.map((p) => time(p.ts)) },
        yAxis: [
          { type: "value", name: "W" },
          { type: "value", name: "%", max: 100 },
        ],
        series: [
          ...POWER.map((k) => ({
            name: t(`statistics:curve.${k}`),
            type: "line",
            showSymbol: false,
            data: points.map((p) => p[k]),
          })),
          {
            name: t("statistics:curve.batterySoc"),
            type: "line",
            yAxisIndex: 1,
            showSymbol: false,
            data: points.map((p) => p.batterySoc),
          },
        ],
      };
    }
    const records = energy.data?.records ?? [];
    return {
      tooltip: { trigger: "axis" },
      legend: { top: 0 },
      grid: { left: 50, right: 20, bottom: 30, top: 60 },
      xAxis: { type: "category", data: records.map((r) => formatPeriod(r.period)) },
      yAxis: { type: "value", name: "kWh" },
      series: ENERGY.map((k) => ({ name: t(`statistics:energy.${k}`), type: "bar", data: records.map((r) => r[k]) })),
    };
  }, [range, curve.data, energy.data, t, zone]);

  const failed = curve.error ?? energy.error ?? revenue.error;
  const money = (v: number | undefined) => (v === undefined ? "—" : `${v.toFixed(2)} ${revenue.data?.tariff.currency ?? ""}`);
  return (
    <Space orientation="vertical" style={{ width: "100%" }} size={12}>
      <Space wrap>
        <Segmented<Range>
          value={range}
          onChange={setRange}
          data-testid="statistics-range"
          options={(["day", "month", "year", "custom"] as const).map((r) => ({ value: r, label: t(`statistics:ranges.${r}`) }))}
        />
        {range === "custom" ? (
          <DatePicker.RangePicker value={custom} allowClear={false} onChange={(v) => v?.[0] && v[1] && setCustom([v[0], v[1]])} />
        ) : (
          <DatePicker
            value={day}
            allowClear={false}
            picker={range === "day" ? "date" : range}
            onChange={(v) => v && setDay(v)}
            data-testid="statistics-date"
          />
        )}
        <Segmented
          value={as}
          onChange={(v) => setAs(v as "chart" | "table")}
          options={[
            { value: "chart", label: t("statistics:asChart") },
            { value: "table", label: t("statistics:asTable") },
          ]}
          data-testid="statistics-as"
        />
        <Typography.Text type="secondary" data-testid="statistics-zone">
          {t("statistics:deviceZone", { zone })}
        </Typography.Text>
        <Button
          icon={<DownloadOutlined />}
          onClick={() =>
            void downloadExport(API.statistics.export, q, "statistics.csv").catch((e: Error) => void message.error(e.message))
          }
        >
          {t("statistics:export")}
        </Button>
      </Space>
      {failed && <Alert type="error" showIcon title={(failed as Error).message} />}
      <Card size="small" data-testid="statistics-revenue">
        <Space wrap size={32}>
          <Statistic title={t("statistics:revenue.cumulative")} value={money(revenue.data?.cumulative)} />
          <Statistic title={t("statistics:revenue.generation")} value={money(revenue.data?.totals.generation)} />
          <Statistic title={t("statistics:revenue.selfUse")} value={money(revenue.data?.totals.selfUse)} />
          <Statistic title={t("statistics:revenue.sales")} value={money(revenue.data?.totals.sales)} />
          <Statistic title={t("statistics:revenue.total")} value={money(revenue.data?.totals.total)} />
        </Space>
      </Card>
      {as === "chart" ? (
        <EChart option={option} testId={`statistics-chart-${range}`} />
      ) : range === "day" ? (
        <Table
          size="small"
          rowKey="ts"
          data-testid="statistics-table-day"
          dataSource={curve.data?.points ?? []}
          columns={[
            {
              title: t("statistics:columns.period"),
              dataIndex: "ts",
              render: (ts: number) => formatInstant(ts, "minute", { timeZone: zone }),
            },
            ...POWER.map((k) => ({ title: t(`statistics:curve.${k}`), dataIndex: k })),
            { title: t("statistics:curve.batterySoc"), dataIndex: "batterySoc" },
          ]}
        />
      ) : (
        <Table
          size="small"
          rowKey="period"
          data-testid={`statistics-table-${range}`}
          dataSource={energy.data?.records ?? []}
          columns={[
            { title: t("statistics:columns.period"), dataIndex: "period", render: formatPeriod },
            ...ENERGY.map((k) => ({ title: t(`statistics:columns.${k}`), dataIndex: k })),
          ]}
        />
      )}
    </Space>
  );
}
