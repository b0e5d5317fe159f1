import { ENUMS, getRegister, isEnumName } from "@ess/domain";
import { Form, Input, InputNumber, Select } from "antd";
import { useTranslation } from "react-i18next";

/**
 * One setting as its register describes it: an option list, a number with its unit and step, or
 * text. A number keeps what was typed: its range is a rule the form checks and shows, never a clamp.
 */
export function SettingField({ id, editable, error }: { id: string; editable: boolean; error: string | undefined }) {
  const { t } = useTranslation(["registers", "enums"]);
  const r = getRegister(id);
  if (!r) return null;
  const label = t(`registers:${id}`, { defaultValue: id });
  let input: React.ReactNode;
  if (r.enum && isEnumName(r.enum)) {
    const name = r.enum;
    input = (
      <Select
        disabled={!editable}
        options={ENUMS[name].values.map((v) => ({ value: v, label: t(`enums:${name}.${v}`, { defaultValue: String(v) }) }))}
      />
    );
  } else if (r.type === "string" || r.type === "dateTime") input = <Input disabled={!editable} />;
  else input = <InputNumber disabled={!editable} step={r.scale} addonAfter={r.unit || undefined} style={{ width: "100%" }} />;
  return (
    <Form.Item name={id} label={label} validateStatus={error ? "error" : undefined} help={error} data-testid={`setting-${id}`}>
      {input}
    </Form.Item>
  );
}
