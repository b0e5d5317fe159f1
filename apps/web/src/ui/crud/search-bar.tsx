import { SearchOutlined, UndoOutlined } from "@ant-design/icons";
import { Button, Form } from "antd";
import { useTranslation } from "react-i18next";
import { FieldInput } from "./field-input.tsx";
import { fieldLabel } from "./form-fields.tsx";
import type { FieldDef, Values } from "./types.ts";

/** The filters above a list; Search applies them from the first page, Reset clears them. */
export function SearchBar({
  id,
  filters,
  initialValues,
  onSearch,
}: {
  id: string;
  filters: FieldDef[];
  /** What the list opened with (a drill-down link): the inputs show it. */
  initialValues?: Values | undefined;
  onSearch: (values: Values) => void;
}) {
  const { t } = useTranslation(["crud", "fields"]);
  const [form] = Form.useForm<Values>();
  if (filters.length === 0) return null;
  return (
    <Form<Values>
      form={form}
      layout="inline"
      name={`${id}-search`}
      initialValues={initialValues}
      onFinish={onSearch}
      style={{ rowGap: 8, marginBottom: 16 }}
    >
      {filters.map((field) => (
        <Form.Item key={field.name} name={field.name} label={t(fieldLabel(field))}>
          <FieldInput
            field={{ ...field, kind: field.kind === "multiSelect" ? "select" : field.kind }}
            testId={`${id}-filter-${field.name}`}
          />
        </Form.Item>
      ))}
      <Form.Item>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid={`${id}-search`}>
          {t("crud:search")}
        </Button>
      </Form.Item>
      <Form.Item>
        <Button
          icon={<UndoOutlined />}
          data-testid={`${id}-reset`}
          onClick={() => {
            // Clears every input, including what a drill-down link opened the list with.
            form.setFieldsValue(Object.fromEntries(filters.map((f) => [f.name, undefined])));
            onSearch({});
          }}
        >
          {t("crud:reset")}
        </Button>
      </Form.Item>
    </Form>
  );
}
