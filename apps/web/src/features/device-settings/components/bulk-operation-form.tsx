import { checkSettingChange, ENUMS, getRegister, REGISTERS } from "@ess/domain";
import { Alert, App, Button, Checkbox, Form, Radio, Select, Space } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { ApiError, call } from "../../../api/client.ts";
import { askConfirm } from "../../../ui/confirm.tsx";
import { useRegisterFormat } from "../../device-live/components/page-read-panel.tsx";
import { useMyRights } from "../hooks/use-device-settings.ts";
import { settingProblemText } from "../setting-problem.ts";
import { SettingField } from "./setting-field.tsx";

type Product = "single" | "three";
type Kind = "setting" | "command";

/** Settable registers of a product; action registers (confirm selects) are commands, not settings. */
const settableOf = (product: Product) =>
  REGISTERS.filter(
    (r) =>
      r.product === product &&
      r.access === "readWrite" &&
      r.page !== null &&
      r.enum !== "confirmAction" &&
      r.enum !== "confirmAction1",
  );

/**
 * What a bulk operation sends: one setting (checked with the shared spec §5 validators and the
 * caller's display rights before sending) or one command, each behind a confirmation naming the
 * number of devices. The server checks everything again and answers the operation's id.
 */
export function BulkOperationForm({ deviceIds, onSent }: { deviceIds: number[]; onSent: (bulkId: number) => void }) {
  const { t } = useTranslation(["bulk", "settings", "registers", "enums", "deviceLive", "validation", "errors", "fields"]);
  const format = useRegisterFormat();
  const { modal } = App.useApp();
  const [form] = Form.useForm<Record<string, number | string | null>>();
  const [kind, setKind] = useState<Kind>("setting");
  const [product, setProduct] = useState<Product>("three");
  const [registerId, setRegisterId] = useState<string | null>(null);
  const [command, setCommand] = useState<number | null>(null);
  const [queue, setQueue] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const register = registerId ? getRegister(registerId) : undefined;
  const rights = useMyRights(register?.page ?? null);
  const mayChange = !register || (rights.data?.[register.id]?.set ?? false);

  const registerOptions = useMemo(
    () =>
      settableOf(product).map((r) => ({
        value: r.id,
        label: `${t(`registers:${r.id}`, { defaultValue: r.id })} · ${t(`deviceLive:pages.${r.page}`)}`,
      })),
    [product, t],
  );

  /** The operation's body part and its description for the confirmation, or a refusal to show. */
  const prepare = (): { body: { values: Record<string, number | string> } | { command: number }; what: string } | string => {
    if (deviceIds.length === 0) return t("bulk:operation.chooseDevices");
    if (kind === "command") {
      if (command === null) return t("bulk:operation.chooseCommand");
      return { body: { command }, what: t(`enums:deviceCommand.${command}`) };
    }
    if (!register) return t("bulk:operation.chooseRegister");
    if (!mayChange) return t("settings:notForAudience");
    const value = form.getFieldValue(register.id) as number | string | null | undefined;
    if (value === null || value === undefined || value === "") return t("bulk:operation.valueRequired");
    const problems = checkSettingChange(product, {}, { [register.id]: value });
    if (problems[0]) {
      const text = settingProblemText(t, problems[0]);
      form.setFields([{ name: register.id, errors: [text] }]);
      return text;
    }
    const label = t(`registers:${register.id}`, { defaultValue: register.id });
    return { body: { values: { [register.id]: value } }, what: `${label} → ${format(register.id, value)}` };
  };

  /** The value's refusal at its field while typing; gone once the value is fixed. */
  const checkValue = () => {
    if (!register) return;
    const value = form.getFieldValue(register.id) as number | string | null | undefined;
    const problem =
      value === null || value === undefined || value === ""
        ? undefined
        : checkSettingChange(product, {}, { [register.id]: value })[0];
    form.setFields([{ name: register.id, errors: problem ? [settingProblemText(t, problem)] : [] }]);
    if (!problem) setError(null);
  };

  const send = async () => {
    setError(null);
    if (register) form.setFields([{ name: register.id, errors: [] }]);
    const prepared = prepare();
    if (typeof prepared === "string") return setError(prepared);
    const agreed = await askConfirm(modal, t, {
      title: t("bulk:operation.confirm", { what: prepared.what, count: deviceIds.length }),
      okText: t("bulk:operation.confirmOk"),
      okButtonProps: { "data-testid": "bulk-confirm-ok" } as never,
    });
    if (!agreed) return;
    setSending(true);
    try {
      const answer = await call(API.deviceSettings.bulk, {
        body: { filter: { deviceIds }, queueIfOffline: queue, ...prepared.body },
      });
      onSent(answer.bulkId);
    } catch (e) {
      setError(e instanceof ApiError ? (e.fields[0]?.message ?? e.message) : t("errors:internal"));
    } finally {
      setSending(false);
    }
  };

  return (
    <Form form={form} layout="vertical" data-testid="bulk-operation" style={{ maxWidth: 720 }} onValuesChange={checkValue}>
      <Form.Item label={t("bulk:operation.kind")}>
        <Radio.Group
          value={kind}
          onChange={(e) => setKind(e.target.value)}
          options={[
            { value: "setting", label: <span data-testid="bulk-kind-setting">{t("bulk:operation.setting")}</span> },
            { value: "command", label: <span data-testid="bulk-kind-command">{t("bulk:operation.command")}</span> },
          ]}
        />
      </Form.Item>
      {kind === "setting" ? (
        <>
          <Form.Item label={t("bulk:operation.product")} extra={t("bulk:operation.productHelp")}>
            <Radio.Group
              value={product}
              onChange={(e) => {
                setProduct(e.target.value);
                setRegisterId(null);
              }}
              options={[
                { value: "three", label: t("enums:phaseType.2") },
                { value: "single", label: t("enums:phaseType.1") },
              ]}
            />
          </Form.Item>
          <Form.Item label={t("bulk:operation.register")}>
            <Select
              showSearch={{ optionFilterProp: "label" }}
              value={registerId}
              onChange={setRegisterId}
              options={registerOptions}
              placeholder={t("bulk:operation.chooseRegister")}
              data-testid="bulk-register"
            />
          </Form.Item>
          {register && <SettingField key={register.id} id={register.id} editable={mayChange} error={undefined} />}
          {register && !mayChange && rights.data && (
            <Alert type="warning" showIcon title={t("settings:notForAudience")} style={{ marginBottom: 16 }} />
          )}
        </>
      ) : (
        <Form.Item label={t("bulk:operation.command")}>
          <Select
            value={command}
            onChange={setCommand}
            placeholder={t("bulk:operation.chooseCommand")}
            options={ENUMS.deviceCommand.values.map((c) => ({ value: c, label: t(`enums:deviceCommand.${c}`) }))}
            data-testid="bulk-command"
          />
        </Form.Item>
      )}
      <Space direction="vertical">
        <Checkbox checked={queue} onChange={(e) => setQueue(e.target.checked)} data-testid="bulk-queue">
          {t("bulk:operation.queue")}
        </Checkbox>
        <Button type="primary" loading={sending} onClick={() => void send()} data-testid="bulk-send">
          {t("bulk:operation.send", { count: deviceIds.length })}
        </Button>
        {error && <Alert type="error" showIcon title={error} data-testid="bulk-error" />}
      </Space>
    </Form>
  );
}
