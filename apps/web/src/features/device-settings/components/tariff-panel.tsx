import type { TariffData } from "@ess/contracts";
import { checkTariff, type RuleProblem } from "@ess/domain";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Col, Form, Input, Row, Space, Statistic, TimePicker } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { ApiError, call } from "../../../api/client.ts";
import { ClearProfitButton } from "./clear-profit-button.tsx";
import { type Outcome, OutcomeAlert } from "./outcome-alert.tsx";

type FormPeriod = { start: Dayjs | null; end: Dayjs | null; price: string };
type FormValues = { buy: FormPeriod[]; sell: FormPeriod[] };

const toForm = (t: TariffData): FormValues => {
  const side = (list: TariffData["buy"]) =>
    (list.length ? list : [{ start: "00:00", end: "23:59", price: "" }]).map((p) => ({
      start: dayjs(p.start, "HH:mm"),
      end: dayjs(p.end, "HH:mm"),
      price: p.price,
    }));
  return { buy: side(t.buy), sell: side(t.sell) };
};
const fromForm = (list: FormPeriod[] | undefined) =>
  (list ?? []).map((p) => ({
    start: p?.start?.format("HH:mm") ?? null,
    end: p?.end?.format("HH:mm") ?? null,
    price: p?.price ?? null,
  }));

/**
 * The electricity prices of the device's user (buy and sell periods covering the day) and the
 * revenue they give today. Without a bound user the page says so and offers nothing to edit.
 */
export function TariffPanel({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation(["tariffs", "settings", "schedules", "errors"]);
  const client = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const tariff = useQuery({
    queryKey: ["device-tariff", deviceId],
    queryFn: () => call(API.tariff.ofDevice, { query: { deviceId } }),
    retry: false,
  });
  const today = dayjs().format("YYYY-MM-DD");
  const revenue = useQuery({
    queryKey: ["device-revenue", deviceId, today],
    queryFn: () => call(API.tariff.revenue, { query: { deviceId, startDate: today, endDate: today } }),
  });

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
  const save = async () => {
    const v = form.getFieldsValue(true) as FormValues;
    const body = { buy: fromForm(v.buy), sell: fromForm(v.sell) };
    const problems = checkTariff(body);
    if (problems.length > 0) {
      setOutcome({ ok: false, text: t((problems[0] as RuleProblem).key, (problems[0] as RuleProblem).values) });
      return;
    }
    try {
      await call(API.tariff.save, { body: { userId: tariff.data.userId ?? null, currency: tariff.data.currency, ...body } });
      setOutcome({ ok: true, text: t("tariffs:saved") });
      await client.invalidateQueries({ queryKey: ["device-tariff", deviceId] });
      await client.invalidateQueries({ queryKey: ["device-revenue", deviceId] });
    } catch (error) {
      setOutcome({
        ok: false,
        text: error instanceof ApiError ? (error.fields[0]?.message ?? error.message) : t("errors:internal"),
      });
    }
  };
  const day = revenue.data?.days[0];
  const sideList = (side: "buy" | "sell") => (
    <Form.List name={side}>
      {(fields, { add, remove }) => (
        <>
          {fields.map((f) => (
            <Space key={f.key} align="baseline" wrap data-testid={`tariff-${side}-${f.name}`}>
              <Form.Item name={[f.name, "start"]}>
                <TimePicker format="HH:mm" style={{ width: 100 }} placeholder={t("tariffs:start")} />
              </Form.Item>
              <Form.Item name={[f.name, "end"]}>
                <TimePicker format="HH:mm" style={{ width: 100 }} placeholder={t("tariffs:end")} />
              </Form.Item>
              <Form.Item name={[f.name, "price"]}>
                <Input
                  style={{ width: 170 }}
                  placeholder={t("tariffs:price")}
                  addonAfter={tariff.data.currency}
                  data-testid={`tariff-${side}-${f.name}-price`}
                />
              </Form.Item>
              <Button onClick={() => remove(f.name)}>{t("tariffs:remove")}</Button>
            </Space>
          ))}
          <Button onClick={() => add({ start: null, end: null, price: "" })}>{t("tariffs:add")}</Button>
        </>
      )}
    </Form.List>
  );
  return (
    <div data-testid="tariff-panel">
      {tariff.data.isDefault && <Alert type="info" showIcon title={t("tariffs:usingDefault")} style={{ marginBottom: 16 }} />}
      <Form form={form} key={tariff.dataUpdatedAt} initialValues={toForm(tariff.data)}>
        <Row gutter={24}>
          <Col xs={24} xl={12}>
            <h4>{t("tariffs:buy")}</h4>
            {sideList("buy")}
          </Col>
          <Col xs={24} xl={12}>
            <h4>{t("tariffs:sell")}</h4>
            {sideList("sell")}
          </Col>
        </Row>
        <Button type="primary" style={{ marginTop: 16 }} onClick={() => void save()} data-testid="tariff-save">
          {t("tariffs:save")}
        </Button>
      </Form>
      <OutcomeAlert outcome={outcome} testId="tariff-outcome" style={{ marginTop: 16 }} />
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
