import type { TariffData } from "@ess/contracts";
import { checkTariff } from "@ess/domain";
import { Alert, Button, Col, Form, Input, Row, Space, TimePicker } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { ApiError, call } from "../../../api/client.ts";
import { useLiveErrors } from "../../../ui/live-errors.ts";
import { StickyActions } from "../../../ui/sticky-actions.tsx";
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
 * The buy and sell periods of one tariff (a user's, or the default with `userId` null) and their
 * prices. The rules of spec §5 (shared with the server) run on every change: each refusal shows at
 * its period, all at once, and Save sends nothing while one stands.
 */
export function TariffEditor({
  tariff,
  onSaved,
  testId = "tariff",
}: {
  tariff: TariffData;
  onSaved: () => Promise<unknown>;
  testId?: string;
}) {
  const { t } = useTranslation(["tariffs", "settings", "schedules", "errors"]);
  const [form] = Form.useForm<FormValues>();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [initial] = useState(() => toForm(tariff));
  const live = useLiveErrors();

  const bodyOf = () => {
    const v = { ...initial, ...(form.getFieldsValue(true) as Partial<FormValues>) };
    return { buy: fromForm(v.buy), sell: fromForm(v.sell) };
  };
  const problems = checkTariff(bodyOf()).map((p) => ({ field: p.field, message: t(p.key, p.values) }));
  const errors = live.visible(problems);
  const at = (field: string) => ({
    validateStatus: errors[field] ? ("error" as const) : undefined,
    help: errors[field],
  });

  const save = async () => {
    setOutcome(null);
    live.submit();
    if (problems.length > 0) return;
    try {
      await call(API.tariff.save, { body: { userId: tariff.userId ?? null, currency: tariff.currency, ...bodyOf() } });
      setOutcome({ ok: true, text: t("tariffs:saved") });
      live.reset();
      await onSaved();
    } catch (error) {
      setOutcome({
        ok: false,
        text: error instanceof ApiError ? (error.fields[0]?.message ?? error.message) : t("errors:internal"),
      });
    }
  };

  const sideList = (side: "buy" | "sell") => (
    <Form.List name={side}>
      {(fields, { add, remove }) => (
        <>
          {fields.map((f) => (
            <Space key={f.key} align="baseline" wrap data-testid={`${testId}-${side}-${f.name}`}>
              <Form.Item name={[f.name, "start"]} {...at(`${side}.${f.name}.start`)}>
                <TimePicker format="HH:mm" style={{ width: 100 }} placeholder={t("tariffs:start")} />
              </Form.Item>
              <Form.Item name={[f.name, "end"]} {...at(`${side}.${f.name}.end`)}>
                <TimePicker format="HH:mm" style={{ width: 100 }} placeholder={t("tariffs:end")} />
              </Form.Item>
              <Form.Item name={[f.name, "price"]} {...at(`${side}.${f.name}.price`)}>
                <Input
                  style={{ width: 170 }}
                  placeholder={t("tariffs:price")}
                  addonAfter={tariff.currency}
                  data-testid={`${testId}-${side}-${f.name}-price`}
                />
              </Form.Item>
              <Button onClick={() => remove(f.name)}>{t("tariffs:remove")}</Button>
            </Space>
          ))}
          {errors[side] && (
            <Alert
              type="error"
              showIcon
              title={errors[side]}
              style={{ marginBottom: 8 }}
              data-testid={`${testId}-${side}-error`}
            />
          )}
          <Button onClick={() => add({ start: null, end: null, price: "" })}>{t("tariffs:add")}</Button>
        </>
      )}
    </Form.List>
  );
  return (
    <>
      <Form form={form} initialValues={initial} onValuesChange={live.onValuesChange} data-testid={`${testId}-form`}>
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
        <StickyActions>
          <Button type="primary" onClick={() => void save()} data-testid={`${testId}-save`}>
            {t("tariffs:save")}
          </Button>
        </StickyActions>
      </Form>
      <OutcomeAlert outcome={outcome} testId={`${testId}-outcome`} style={{ marginTop: 16 }} />
    </>
  );
}
