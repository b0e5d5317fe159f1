import { checkSettingChange, REGISTERS, type RuleProblem } from "@ess/domain";
import { Alert, Button, Checkbox, Col, Divider, Form, Row, Space } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../api/client.ts";
import { useMyRights, useSettingsPage, useWriteSettings } from "../hooks/use-device-settings.ts";
import { SettingField } from "./setting-field.tsx";

type Values = Record<string, number | string | null>;

/**
 * One settings page of the catalogue: the settable registers the caller may view (display
 * configuration, else the catalogue's audience defaults), grouped, filled from the device's answer. Save sends every changed field as one operation,
 * after the spec §5 rules (shared validators) pass here; the server checks them again.
 */
export function SettingsForm({ deviceId, page, product }: { deviceId: number; page: number; product: "single" | "three" }) {
  const { t } = useTranslation(["settings", "schedules", "validation", "errors"]);
  const answer = useSettingsPage(deviceId, page);
  const rights = useMyRights(page);
  const write = useWriteSettings(deviceId);
  const [form] = Form.useForm<Values>();
  const [errors, setErrors] = useState<Record<string, string>>({});
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

  const submit = async () => {
    const values = form.getFieldsValue(true) as Values;
    const changes: Record<string, number | string> = {};
    for (const [id, v] of Object.entries(values)) if (v !== null && v !== undefined && v !== current[id]) changes[id] = v;
    setOutcome(null);
    if (Object.keys(changes).length === 0) {
      setOutcome({ type: "info", text: t("settings:form.noChanges") });
      return;
    }
    const problems = checkSettingChange(product, current as Record<string, number | string>, changes);
    if (problems.length > 0) {
      setErrors(Object.fromEntries(problems.map((p) => [p.field, t(p.key, p.values)])));
      setOutcome({ type: "error", text: t((problems[0] as RuleProblem).key, (problems[0] as RuleProblem).values) });
      return;
    }
    setErrors({});
    try {
      const record = await write.mutateAsync({ values: changes, queueIfOffline: queue });
      if (record.state === "acknowledged") {
        setOutcome({ type: "success", text: t("settings:form.acknowledged") });
        void answer.refetch();
      } else if (record.state === "queued") setOutcome({ type: "info", text: t("settings:form.queued") });
      else setOutcome({ type: "error", text: record.refusalText ?? t(`settings:states.${record.state}`) });
    } catch (error) {
      if (error instanceof ApiError) {
        setErrors(Object.fromEntries(error.fields.map((f) => [f.field, f.message])));
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
      data-testid={`settings-form-${page}`}
    >
      {groups.map(([group, ids]) => (
        <div key={group}>
          <Divider titlePlacement="start">{t(`settings:groups.${group.replace(/\./g, "_")}`, { defaultValue: group })}</Divider>
          <Row gutter={16}>
            {ids.map((id) => (
              <Col key={id} xs={24} md={12} xl={8}>
                <SettingField id={id} editable={settable(id)} error={errors[id]} />
              </Col>
            ))}
          </Row>
        </div>
      ))}
      <Space wrap>
        <Button type="primary" onClick={() => void submit()} loading={write.isPending} data-testid="settings-save">
          {t("settings:form.save")}
        </Button>
        <Button onClick={() => void answer.refetch()} data-testid="settings-reload">
          {t("settings:form.reload")}
        </Button>
        <Checkbox checked={queue} onChange={(e) => setQueue(e.target.checked)} data-testid="settings-queue">
          {t("settings:form.queueIfOffline")}
        </Checkbox>
      </Space>
      {outcome && (
        <Alert style={{ marginTop: 16 }} type={outcome.type} showIcon title={outcome.text} data-testid="settings-outcome" />
      )}
    </Form>
  );
}
