import { checkSettingDraft, REGISTERS } from "@ess/domain";
import { Alert, Button, Checkbox, Col, Divider, Form, Row } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../api/client.ts";
import { useLiveErrors } from "../../../ui/live-errors.ts";
import { StickyActions } from "../../../ui/sticky-actions.tsx";
import { useMyRights, useSettingsPage, useWriteSettings } from "../hooks/use-device-settings.ts";
import { settingProblemText } from "../setting-problem.ts";
import { ReadAgainButton } from "./read-again-button.tsx";
import { RestoreDefaults } from "./restore-defaults.tsx";
import { SettingField } from "./setting-field.tsx";

type Values = Record<string, number | string | null>;

/**
 * One settings page of the catalogue: the settable registers the caller may view (display
 * configuration, else the catalogue's audience defaults), grouped, filled from the device's answer.
 * Every change is checked at once with the shared rules (range, step, spec §5) and each refusal
 * shows at its field while typing, kept as typed (never clamped); Save sends every changed field
 * as one operation once nothing is refused, and the server checks them again.
 */
export function SettingsForm({ deviceId, page, product }: { deviceId: number; page: number; product: "single" | "three" }) {
  const { t } = useTranslation(["settings", "schedules", "validation", "errors", "registers", "fields"]);
  const answer = useSettingsPage(deviceId, page);
  const rights = useMyRights(page);
  const write = useWriteSettings(deviceId);
  const [form] = Form.useForm<Values>();
  const live = useLiveErrors();
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [queue, setQueue] = useState(false);
  const [outcome, setOutcome] = useState<{ type: "success" | "error" | "info"; text: string } | null>(null);

  const groups = useMemo(() => {
    const byGroup = new Map<string, string[]>();
    for (const r of REGISTERS) {
      if (r.page !== page || r.access !== "readWrite" || !rights.data?.[r.id]?.view || r.product !== product) continue;
      // Action registers (confirm selects) are commands: they live on the commands tab.
      if (r.enum === "confirmAction" || r.enum === "confirmAction1") continue;
      const list = byGroup.get(r.group) ?? [];
      list.push(r.id);
      byGroup.set(r.group, list);
    }
    return [...byGroup];
  }, [page, rights.data, product]);

  const current: Values = answer.data?.values ?? {};
  const settable = (id: string) => rights.data?.[id]?.set ?? false;

  /** The fields whose value differs from what the device answered. */
  const changesOf = (): Record<string, number | string> => {
    const values = form.getFieldsValue(true) as Values;
    const changes: Record<string, number | string> = {};
    for (const [id, v] of Object.entries(values)) if (v !== null && v !== undefined && v !== current[id]) changes[id] = v;
    return changes;
  };
  const changes = changesOf();
  const problems = checkSettingDraft(product, current as Record<string, number | string>, changes).map((p) => ({
    field: p.field,
    // Each refusal names its setting, as the server's does.
    message: settingProblemText(t, p),
  }));
  const errors = { ...serverErrors, ...live.visible(problems) };

  /** Reads the device again and shows what it answers, whatever was typed. */
  const readAgain = async () => {
    const read = await answer.refetch();
    form.resetFields();
    if (read.data) form.setFieldsValue(read.data.values);
    live.reset();
    setServerErrors({});
    setOutcome(null);
  };

  const submit = async () => {
    setOutcome(null);
    live.submit();
    setServerErrors({});
    if (Object.keys(changes).length === 0) {
      setOutcome({ type: "info", text: t("settings:form.noChanges") });
      return;
    }
    // Nothing is sent while a field is refused; the first one is brought into view.
    if (problems[0]) return form.scrollToField(problems[0].field, { block: "center" });
    try {
      const record = await write.mutateAsync({ values: changes, queueIfOffline: queue });
      if (record.state === "acknowledged") {
        setOutcome({ type: "success", text: t("settings:form.acknowledged") });
        live.reset();
        void answer.refetch();
      } else if (record.state === "queued") setOutcome({ type: "info", text: t("settings:form.queued") });
      else setOutcome({ type: "error", text: record.refusalText ?? t(`settings:states.${record.state}`) });
    } catch (error) {
      if (error instanceof ApiError) {
        setServerErrors(Object.fromEntries(error.fields.map((f) => [f.field, f.message])));
        setOutcome({ type: "error", text: error.fields[0]?.message ?? error.message });
      } else setOutcome({ type: "error", text: t("errors:internal") });
    }
  };

  if (answer.error) {
    return (
      <Alert
        type="warning"
        showIcon
        title={answer.error instanceof ApiError ? answer.error.message : t("errors:internal")}
        data-testid="settings-load-error"
      />
    );
  }
  return (
    <Form
      form={form}
      layout="vertical"
      key={answer.dataUpdatedAt}
      initialValues={current}
      disabled={answer.isPending}
      onValuesChange={(changed: Partial<Values>) => {
        live.onValuesChange(changed);
        // A value the server refused is shown as refused until it changes.
        setServerErrors((before) => Object.fromEntries(Object.entries(before).filter(([id]) => !(id in changed))));
      }}
      data-testid={`settings-form-${page}`}
    >
      {groups.map(([group, ids]) => (
        <div key={group}>
          <Divider titlePlacement="start">{t(`settings:groups.${group.replace(/\./g, "_")}`, { defaultValue: group })}</Divider>
          <RestoreDefaults
            {...{ deviceId, product, current, settable }}
            shown={ids}
            onRestored={async (restored) => {
              // The restored fields show what the device answers now, whatever was typed in them.
              const read = await answer.refetch();
              const values = read.data?.values ?? {};
              form.setFieldsValue(Object.fromEntries(restored.map((id) => [id, values[id] ?? null])));
            }}
            onOutcome={setOutcome}
          />
          <Row gutter={16}>
            {ids.map((id) => (
              <Col key={id} xs={24} md={12} xl={8}>
                <SettingField id={id} editable={settable(id)} error={errors[id]} />
              </Col>
            ))}
          </Row>
        </div>
      ))}
      <StickyActions testId="settings-actions">
        <Button type="primary" onClick={() => void submit()} loading={write.isPending} data-testid="settings-save">
          {t("settings:form.save")}
        </Button>
        <ReadAgainButton
          unsaved={Object.keys(changes).length}
          loading={answer.isFetching}
          onRead={readAgain}
          testId="settings-reload"
        />
        <Checkbox checked={queue} onChange={(e) => setQueue(e.target.checked)} data-testid="settings-queue">
          {t("settings:form.queueIfOffline")}
        </Checkbox>
      </StickyActions>
      {outcome && (
        <Alert style={{ marginTop: 16 }} type={outcome.type} showIcon title={outcome.text} data-testid="settings-outcome" />
      )}
    </Form>
  );
}
