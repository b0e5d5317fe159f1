import { Form } from "antd";
import { useTranslation } from "react-i18next";
import { FieldInput } from "./field-input.tsx";
import type { FieldDef, Values } from "./types.ts";

export const fieldLabel = (field: FieldDef) => field.label ?? `fields:${field.name.split(".").at(-1)}`;

/**
 * The form items for a list of fields. Each is wrapped in `data-testid="field-<name>"` so a test
 * (or a user reading the page) finds the field and the refusal under it together.
 */
/** Inputs that need the dialog's full width in a two-column form. */
const WIDE = new Set(["textarea", "tree"]);

/** Long forms are laid out in two columns (see FormDialog); wide inputs span both. */
export const twoColumns = (fields: FieldDef[]) => fields.length > 6;

export function FormFields({ fields, prefix }: { fields: FieldDef[]; prefix: string }) {
  const { t } = useTranslation();
  return fields.map((field) => {
    const item = (
      <div
        key={field.name}
        data-testid={`field-${field.name}`}
        style={WIDE.has(field.kind ?? "text") ? { gridColumn: "1 / -1" } : undefined}
      >
        <Form.Item
          name={field.name.split(".")}
          label={t(fieldLabel(field))}
          required={field.required}
          extra={field.help ? t(field.help) : undefined}
          valuePropName="value"
        >
          <FieldInput field={field} testId={`${prefix}-${field.name}`} />
        </Form.Item>
      </div>
    );
    if (!field.visible) return item;
    const visible = field.visible;
    return (
      <Form.Item key={field.name} noStyle shouldUpdate>
        {(form) => (visible(form.getFieldsValue(true) as Values) ? item : null)}
      </Form.Item>
    );
  });
}
