import { Alert, App, Button, Form, Modal } from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, call } from "../../api/client.ts";
import { askConfirm } from "../confirm.tsx";
import { setFormErrors, useLiveErrors } from "../live-errors.ts";
import { checkBody, placeErrors } from "./field-errors.ts";
import { FormFields, twoColumns } from "./form-fields.tsx";
import type { FormSpec, Values } from "./types.ts";

/** Values for a dotted field name, read from a record. */
const readPath = (record: unknown, path: string): unknown =>
  path.split(".").reduce<unknown>((at, key) => (at && typeof at === "object" ? (at as Values)[key] : undefined), record);

const defaultInitial = <R,>(spec: FormSpec<R>, record: R | undefined): Values => {
  const values: Values = {};
  if (!record) return values;
  for (const field of spec.fields) {
    const value = readPath(record, field.name);
    if (value === null || value === undefined) continue;
    let at = values;
    const parts = field.name.split(".");
    for (const part of parts.slice(0, -1)) {
      if (!at[part]) at[part] = {};
      at = at[part] as Values;
    }
    at[parts.at(-1) as string] = value;
  }
  return values;
};

/** Empty inputs are absent values: the schema's defaults then apply, as they do on the server. */
const dropEmpty = (value: unknown): unknown => {
  if (Array.isArray(value)) return value;
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value as Values)
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([k, v]) => [k, dropEmpty(v)]),
    );
  return value;
};

const defaultBody = <R,>(values: Values, record: R | undefined) =>
  record && typeof record === "object" && "id" in record ? { ...values, id: (record as { id: number }).id } : values;

/**
 * A create / edit / action dialog. The values are checked with the route's own schema before
 * sending, so the user sees the same field-named messages the server would give; the server's
 * refusals (taken names, scope rules) land on their fields too. Nothing is sent while a field is refused.
 */
export function FormDialog<R>({
  spec,
  record,
  testId,
  onClose,
  onDone,
  onRefused,
}: {
  spec: FormSpec<R>;
  record: R | undefined;
  testId: string;
  onClose: () => void;
  onDone: () => void;
  /** The server refused because of the record's current state (e.g. bound meanwhile): read it again. */
  onRefused?: () => void;
}) {
  const { t } = useTranslation(["crud", "fields", "validation"]);
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [general, setGeneral] = useState<string[]>([]);
  const [sending, setSending] = useState(false);
  const [initial] = useState(() => (spec.initial ?? ((r: R | undefined) => defaultInitial(spec, r)))(record));

  const live = useLiveErrors();
  /** The server's refusals, each kept until its field changes. */
  const serverErrors = useRef<{ field: string; message: string }[]>([]);
  /** The fields whose refusals are on screen now (cleared when no longer refused). */
  const shownFields = useRef<string[]>([]);

  const bodyOf = () => (spec.toBody ?? defaultBody)(dropEmpty(form.getFieldsValue(true)) as Values, record);

  /**
   * Checks the whole body with the route's schema on every change and shows the refusals of the
   * fields the user changed (all of them after Save), so a message appears while typing and goes
   * away as soon as the value is fixed.
   */
  const showErrors = (all: boolean) => {
    const problems = checkBody(spec.schema, bodyOf(), t, spec.fields);
    const placed = placeErrors([...problems, ...serverErrors.current], spec.fields);
    const byField = live.visible(placed.fields.map((f) => ({ field: f.name.join("."), message: f.errors[0] ?? "" })));
    setFormErrors(form as never, shownFields, byField);
    if (all) setGeneral(placed.general);
    return problems;
  };

  const onValuesChange = (changed: Values) => {
    live.onValuesChange(changed);
    const changedNames = spec.fields.map((f) => f.name).filter((name) => readPath(changed, name) !== undefined);
    serverErrors.current = serverErrors.current.filter(
      (e) => !changedNames.some((n) => e.field === n || e.field.startsWith(`${n}.`)),
    );
    // The set-up runs after antd stored the value; the check reads the form's values.
    queueMicrotask(() => showErrors(false));
  };

  const submit = async () => {
    const body = bodyOf();
    live.submit();
    serverErrors.current = [];
    setGeneral([]);
    const problems = showErrors(true);
    if (problems.length > 0) return;
    if (spec.confirm) {
      const question = t(spec.confirm, (record ?? {}) as Values);
      const agreed = await askConfirm(modal, t, {
        title: question,
        okButtonProps: { "data-testid": `${testId}-confirm-ok` } as never,
      });
      if (!agreed) return;
    }
    setSending(true);
    try {
      const answer = await call(spec.route, { body } as never);
      void message.success(t(spec.success ?? "crud:saved"));
      onDone();
      spec.onAnswer?.(answer, record);
    } catch (error) {
      if (error instanceof ApiError && error.fields.length > 0) {
        serverErrors.current = error.fields;
        showErrors(true);
      } else setGeneral([(error as Error).message]);
      if (error instanceof ApiError && error.fields.length === 0) onRefused?.();
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal
      open
      title={t(spec.title, (record ?? {}) as Values)}
      onCancel={onClose}
      destroyOnHidden
      maskClosable={false}
      width={twoColumns(spec.fields) ? 800 : 560}
      footer={[
        <Button key="cancel" onClick={onClose} data-testid={`${testId}-cancel`}>
          {t("crud:cancel")}
        </Button>,
        <Button key="ok" type="primary" loading={sending} onClick={() => void submit()} data-testid={`${testId}-ok`}>
          {t("crud:save")}
        </Button>,
      ]}
    >
      <div data-testid={testId}>
        {spec.intro && (
          <Alert type="warning" showIcon title={t(spec.intro, (record ?? {}) as Values)} style={{ marginBottom: 16 }} />
        )}
        <Form<Values>
          form={form}
          layout="vertical"
          initialValues={initial}
          name={testId}
          onFinish={() => void submit()}
          onValuesChange={onValuesChange}
        >
          <div style={twoColumns(spec.fields) ? { display: "grid", gridTemplateColumns: "1fr 1fr", columnGap: 16 } : undefined}>
            <FormFields fields={spec.fields} prefix={testId} />
          </div>
          {general.map((text) => (
            <Alert key={text} type="error" showIcon title={text} style={{ marginBottom: 8 }} data-testid={`${testId}-error`} />
          ))}
        </Form>
      </div>
    </Modal>
  );
}
