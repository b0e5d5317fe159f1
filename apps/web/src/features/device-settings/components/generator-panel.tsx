import type { GeneratorSettings, WriteRecord } from "@ess/contracts";
import { checkGenerator, GENERATOR_OUTPUT_MODES, GENERATOR_RATED_POWER_KW } from "@ess/domain";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Form, InputNumber, Radio, Select, Space, Switch, TimePicker } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { ApiError, call } from "../../../api/client.ts";
import { useLiveErrors } from "../../../ui/live-errors.ts";
import { StickyActions } from "../../../ui/sticky-actions.tsx";
import { type Outcome, OutcomeAlert } from "./outcome-alert.tsx";

type FormValues = Omit<GeneratorSettings, "slots"> & { slots: { start: Dayjs | null; end: Dayjs | null }[] };

const EMPTY: GeneratorSettings = {
  on: false,
  ratedPowerKw: null,
  availablePct: 100,
  controlMode: "manual",
  socLower: null,
  socUpper: null,
  slots: [],
  outputMode: null,
  chargePowerKw: null,
};

/**
 * The generator page: switch, rated power, available share, manual or SOC control with its time
 * slots, output mode and battery charging power. The spec §5 rules (shared with the server) run on
 * every change and each refusal shows at its field, all of them at once; Save sends nothing while
 * one stands, and the server checks again (it also refuses switching on while the grid is connected).
 */
export function GeneratorPanel({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation(["generator", "deviceWrites", "settings", "schedules", "validation", "errors"]);
  const client = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const info = useQuery({
    queryKey: ["device-generator", deviceId],
    queryFn: () => call(API.generator.info, { query: { deviceId } }),
    retry: false,
  });
  const mode = Form.useWatch("controlMode", form);
  const live = useLiveErrors();
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});

  if (info.error) {
    return (
      <Alert
        type="error"
        showIcon
        title={t("generator:fetchFailed")}
        data-testid="generator-fetch-failed"
        action={<Button onClick={() => void info.refetch()}>{t("deviceWrites:retry")}</Button>}
      />
    );
  }
  if (!info.data) return null;
  const settings = info.data.settings ?? EMPTY;
  const initial: FormValues = {
    ...settings,
    slots: settings.slots.map((s) => ({
      start: s.start ? dayjs(s.start, "HH:mm") : null,
      end: s.end ? dayjs(s.end, "HH:mm") : null,
    })),
  };
  const bodyOf = (): GeneratorSettings => {
    const v = { ...initial, ...(form.getFieldsValue(true) as Partial<FormValues>) };
    return {
      ...v,
      slots: (v.slots ?? []).map((s) => ({ start: s?.start?.format("HH:mm") ?? null, end: s?.end?.format("HH:mm") ?? null })),
    };
  };
  const problems = checkGenerator(bodyOf(), { gridConnected: info.data.gridConnected }).map((p) => ({
    field: p.field,
    message: t(p.key, p.values),
  }));
  const errors = { ...serverErrors, ...live.visible(problems) };
  /** The item props showing a field's refusal (or that of a part of it, such as a slot's end). */
  const at = (field: string) => {
    const message = errors[field];
    return { validateStatus: message ? ("error" as const) : undefined, help: message };
  };
  /** Saved either way; what the device made of it is the write record's end. */
  const writeOutcome = (write: WriteRecord) => {
    if (write.state === "acknowledged") return { ok: true, text: t("deviceWrites:generatorApplied") };
    if (write.state === "queued") return { ok: true, text: t("deviceWrites:generatorQueued") };
    return {
      ok: false,
      text: t("deviceWrites:generatorNotApplied", { reason: write.refusalText ?? t(`settings:states.${write.state}`) }),
    };
  };

  const save = async () => {
    live.submit();
    setServerErrors({});
    setOutcome(null);
    const body = bodyOf();
    // Nothing is sent while a field is refused; the first one is brought into view.
    if (problems[0]) return form.scrollToField(problems[0].field.split("."), { block: "center" });
    try {
      const { write } = await call(API.generator.operate, { body: { deviceId, ...body } });
      setOutcome(writeOutcome(write));
      live.reset();
      await client.invalidateQueries({ queryKey: ["device-generator", deviceId] });
      await client.invalidateQueries({ queryKey: ["device-write-records", deviceId] });
    } catch (error) {
      if (error instanceof ApiError && error.fields.length > 0) {
        setServerErrors(Object.fromEntries(error.fields.map((f) => [f.field, f.message])));
        // A refusal of something the page has no field for is said under Save.
        const elsewhere = error.fields.find((f) => !((f.field.split(".")[0] ?? "") in EMPTY));
        if (elsewhere) setOutcome({ ok: false, text: elsewhere.message });
      } else setOutcome({ ok: false, text: error instanceof ApiError ? error.message : t("errors:internal") });
    }
  };

  return (
    <Form
      form={form}
      layout="vertical"
      key={info.dataUpdatedAt}
      initialValues={initial}
      data-testid="generator-panel"
      onValuesChange={(changed) => {
        live.onValuesChange(changed);
        setServerErrors({});
      }}
      style={{ maxWidth: 720 }}
    >
      {info.data.gridConnected && (
        <Alert type="info" showIcon title={t("generator:gridConnectedNow")} style={{ marginBottom: 16 }} />
      )}
      <Form.Item name="on" label={t("generator:on")} valuePropName="checked" {...at("on")} data-testid="generator-on">
        <Switch />
      </Form.Item>
      <Form.Item name="ratedPowerKw" label={t("generator:ratedPower")} {...at("ratedPowerKw")} data-testid="generator-rated">
        <Select
          options={Array.from({ length: GENERATOR_RATED_POWER_KW.max - GENERATOR_RATED_POWER_KW.min + 1 }, (_, i) => {
            const kw = GENERATOR_RATED_POWER_KW.min + i;
            return { value: kw, label: t("generator:kw", { value: kw }) };
          })}
        />
      </Form.Item>
      <Form.Item
        name="availablePct"
        label={t("generator:availablePct")}
        {...at("availablePct")}
        data-testid="generator-available"
      >
        <InputNumber addonAfter="%" data-testid="generator-available-input" />
      </Form.Item>
      <Form.Item name="controlMode" label={t("generator:controlMode")}>
        <Radio.Group
          options={[
            { value: "manual", label: t("generator:controlModes.manual") },
            { value: "soc", label: t("generator:controlModes.soc") },
          ]}
        />
      </Form.Item>
      {mode === "soc" && (
        <Space>
          <Form.Item name="socLower" label={t("generator:socLower")} {...at("socLower")} data-testid="generator-soc-lower">
            <InputNumber addonAfter="%" data-testid="generator-soc-lower-input" />
          </Form.Item>
          <Form.Item name="socUpper" label={t("generator:socUpper")} {...at("socUpper")} data-testid="generator-soc-upper">
            <InputNumber addonAfter="%" data-testid="generator-soc-upper-input" />
          </Form.Item>
        </Space>
      )}
      <Form.List name="slots">
        {(fields, { add, remove }) => (
          <Form.Item label={t("generator:slots")} {...at("slots")} data-testid="generator-slots">
            {fields.map((f) => (
              <Space key={f.key} align="baseline">
                <Form.Item name={[f.name, "start"]} {...at(`slots.${f.name}.start`)}>
                  <TimePicker format="HH:mm" placeholder={t("generator:start")} />
                </Form.Item>
                <Form.Item name={[f.name, "end"]} {...at(`slots.${f.name}.end`)}>
                  <TimePicker format="HH:mm" placeholder={t("generator:end")} />
                </Form.Item>
                <Button onClick={() => remove(f.name)}>{t("generator:remove")}</Button>
              </Space>
            ))}
            <Button onClick={() => add({ start: null, end: null })}>{t("generator:addSlot")}</Button>
          </Form.Item>
        )}
      </Form.List>
      <Form.Item name="outputMode" label={t("generator:outputMode")} {...at("outputMode")} data-testid="generator-output">
        <Select options={GENERATOR_OUTPUT_MODES.map((m) => ({ value: m, label: t(`generator:outputModes.${m}`) }))} />
      </Form.Item>
      <Form.Item name="chargePowerKw" label={t("generator:chargePower")} {...at("chargePowerKw")} data-testid="generator-charge">
        <InputNumber addonAfter="kW" data-testid="generator-charge-input" />
      </Form.Item>
      <StickyActions>
        <Button type="primary" onClick={() => void save()} data-testid="generator-save">
          {t("generator:save")}
        </Button>
      </StickyActions>
      <OutcomeAlert outcome={outcome} testId="generator-outcome" style={{ marginTop: 16 }} />
    </Form>
  );
}
