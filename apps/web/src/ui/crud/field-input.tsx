import { useQuery } from "@tanstack/react-query";
import { DatePicker, Input, InputNumber, Select, Spin, Switch, Tree } from "antd";
import { useTranslation } from "react-i18next";
import { TIME_ZONES, useOptions } from "./options.ts";
import type { FieldDef, TreeOption } from "./types.ts";

/** antd passes `value` and `onChange` to the input a Form.Item wraps. */
interface Controlled {
  id?: string;
  value?: unknown;
  onChange?: (value: unknown) => void;
}

/** The input for one field, by its kind. */
export function FieldInput({ field, testId, ...controlled }: { field: FieldDef; testId: string } & Controlled) {
  const common = { id: controlled.id, disabled: field.disabled, "data-testid": testId };
  const onChange = controlled.onChange;
  if (field.input) return field.input({ ...controlled, testId });
  switch (field.kind ?? "text") {
    case "password":
      return (
        <Input.Password
          {...common}
          autoComplete="new-password"
          value={controlled.value as string}
          onChange={(e) => onChange?.(e.target.value)}
        />
      );
    case "textarea":
      return (
        <Input.TextArea {...common} rows={3} value={controlled.value as string} onChange={(e) => onChange?.(e.target.value)} />
      );
    case "number":
      return (
        <InputNumber
          {...common}
          style={{ width: "100%" }}
          value={controlled.value as number}
          onChange={(v) => onChange?.(v ?? undefined)}
        />
      );
    case "switch":
      return <Switch {...common} checked={Boolean(controlled.value)} onChange={(v) => onChange?.(v)} />;
    case "select":
    case "multiSelect":
      return <OptionSelect field={field} testId={testId} {...controlled} />;
    case "timeZone":
      return (
        <Select
          {...common}
          showSearch
          allowClear
          options={TIME_ZONES as { value: string; label: string }[]}
          value={controlled.value as string}
          onChange={(v) => onChange?.(v)}
        />
      );
    case "tree":
      return <TreeInput field={field} testId={testId} {...controlled} />;
    case "dateRange":
      return (
        <DatePicker.RangePicker
          {...common}
          showTime
          value={controlled.value as never}
          onChange={(v) => onChange?.(v ?? undefined)}
        />
      );
    default:
      return <Input {...common} value={controlled.value as string} onChange={(e) => onChange?.(e.target.value)} />;
  }
}

function OptionSelect({ field, testId, ...controlled }: { field: FieldDef; testId: string } & Controlled) {
  const { options, loading } = useOptions(field.options);
  return (
    <Select
      id={controlled.id}
      data-testid={testId}
      mode={field.kind === "multiSelect" ? "multiple" : undefined}
      allowClear
      showSearch={{ optionFilterProp: "label" }}
      loading={loading}
      disabled={field.disabled}
      options={options as { value: string | number; label: string }[]}
      value={controlled.value as string}
      onChange={(v) => controlled.onChange?.(v)}
      style={{ minWidth: 160 }}
    />
  );
}

const leaves = (nodes: TreeOption[]): string[] => nodes.flatMap((n) => (n.children.length === 0 ? [n.key] : leaves(n.children)));
interface TreeData {
  key: string;
  title: string;
  children: TreeData[];
}
const toTreeData = (nodes: TreeOption[]): TreeData[] =>
  nodes.map((n) => ({ key: n.key, title: n.label, children: toTreeData(n.children) }));

/** A checkable tree whose value is the list of checked leaves (group nodes only gather them). */
function TreeInput({ field, testId, ...controlled }: { field: FieldDef; testId: string } & Controlled) {
  const { t, i18n } = useTranslation("crud");
  const tree = useQuery({
    queryKey: ["crud-tree", field.tree?.key, i18n.language],
    queryFn: () => field.tree?.load() ?? Promise.resolve([]),
    staleTime: 60_000,
  });
  if (!tree.data) return <Spin size="small" />;
  const known = new Set(leaves(tree.data));
  const checked = ((controlled.value as string[] | undefined) ?? []).filter((k) => known.has(k));
  return (
    <fieldset
      data-testid={testId}
      id={controlled.id}
      aria-label={t("tree")}
      style={{ border: 0, margin: 0, padding: 0, maxHeight: 360, overflow: "auto" }}
    >
      <Tree
        checkable
        defaultExpandAll
        selectable={false}
        disabled={field.disabled}
        treeData={toTreeData(tree.data)}
        checkedKeys={checked}
        onCheck={(keys) => {
          const list = Array.isArray(keys) ? keys : keys.checked;
          controlled.onChange?.(list.map(String).filter((k) => known.has(k)));
        }}
      />
    </fieldset>
  );
}
