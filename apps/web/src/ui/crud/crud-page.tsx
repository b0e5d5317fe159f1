import { DownloadOutlined, PlusOutlined, ReloadOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Card, Space, Table, type TableColumnsType, Tag } from "antd";
import type { TFunction } from "i18next";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { confirmAction } from "../confirm.tsx";
import { formatDateTime } from "../format/date-time.ts";
import { useCan } from "./can.ts";
import { downloadExport } from "./download.ts";
import { FormDialog } from "./form-dialog.tsx";
import { useOptions } from "./options.ts";
import { hasRowActions, RowActions } from "./row-actions.tsx";
import { SearchBar } from "./search-bar.tsx";
import type { ColumnDef, CrudConfig, FormSpec, OptionSource } from "./types.ts";
import { useCrudList } from "./use-crud-list.ts";

const read = (record: unknown, key: string): unknown =>
  key
    .split(".")
    .reduce<unknown>((at, k) => (at && typeof at === "object" ? (at as Record<string, unknown>)[k] : undefined), record);

function OptionLabel({ source, value }: { source: OptionSource; value: unknown }) {
  const { options } = useOptions(source);
  return <>{options.find((o) => o.value === value)?.label ?? (value === null || value === undefined ? "—" : String(value))}</>;
}

function cell<R>(column: ColumnDef<R>, record: R, t: TFunction) {
  if (column.render) return column.render(record, t);
  const value = read(record, column.key);
  if (column.options) return <OptionLabel source={column.options} value={value} />;
  if (value === null || value === undefined || value === "") return "—";
  if (column.kind === "time") return formatDateTime(value as string);
  if (column.kind === "boolean") return <Tag color={value ? "green" : undefined}>{t(value ? "crud:yes" : "crud:no")}</Tag>;
  return String(value);
}

/** Rows of a tree list show an expander only where there are children. */
const pruneChildren = <R,>(rows: R[]): R[] =>
  rows.map((row) => {
    const children = (row as { children?: R[] }).children;
    return (
      children && children.length > 0 ? { ...row, children: pruneChildren(children) } : { ...row, children: undefined }
    ) as R;
  });

/**
 * A list screen made from its configuration (see `index.ts`): search bar, toolbar (create,
 * export, refresh), a server-paged and server-sorted table, row actions and their dialogs.
 */
export function CrudPage<R extends { id: number }>({ config }: { config: CrudConfig<R> }) {
  const { t } = useTranslation(["crud", "fields", "validation", "enums", ...(config.ns ?? [])]);
  const { message, modal } = App.useApp();
  const can = useCan();
  const list = useCrudList(config);
  // A large list's server stops counting at some point (totalCapped): "2000+".
  const shownTotal = `${list.page?.total ?? 0}${list.page?.totalCapped ? "+" : ""}`;
  const queryClient = useQueryClient();
  // A change may show in other lists and pick-lists (a new role in the user form): refresh them all.
  const refresh = () => void queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith("crud") });
  const [dialog, setDialog] = useState<{ spec: FormSpec<R>; record: R | undefined; key: string } | null>(null);

  const [panel, setPanel] = useState<ReactNode>(null);

  const openForm = (key: string, record: R) => {
    const action = config.actions?.find((a) => a.key === key);
    if (action?.panel) return setPanel(action.panel(record, () => setPanel(null)));
    const spec = key === "edit" ? config.edit : action?.form;
    if (spec) setDialog({ spec, record, key });
  };

  const columns: TableColumnsType<R> = config.columns.map((column) => {
    const sorted = list.state.sort === column.key ? (list.state.order === "asc" ? "ascend" : "descend") : null;
    return {
      key: column.key,
      dataIndex: column.key.split("."),
      title: t(column.title ?? `fields:${column.key}`),
      width: column.width,
      ellipsis: column.ellipsis,
      sorter: column.sortable && !config.tree,
      sortOrder: column.sortable ? sorted : undefined,
      render: (_: unknown, record: R) => cell(column, record, t),
    };
  });
  if (hasRowActions(config, can))
    columns.push({
      key: "actions",
      title: t("crud:actions"),
      fixed: "right",
      width: config.actionsWidth ?? 200,
      render: (_: unknown, record: R) => (
        <RowActions config={config} record={record} t={t} openForm={openForm} refresh={refresh} />
      ),
    });

  const exportRows = () => {
    const spec = config.export;
    if (!spec) return;
    confirmAction(modal, t, {
      title: t("crud:confirmExport", { total: shownTotal }),
      onOk: () =>
        downloadExport(spec.route, list.query, spec.fileName).catch((error: Error) => void message.error(error.message)),
    });
  };

  const records = list.page?.records ?? [];
  return (
    <Card data-testid={`${config.id}-page`}>
      <SearchBar id={config.id} filters={config.filters ?? []} initialValues={config.initialFilters} onSearch={list.search} />
      <Space style={{ marginBottom: 16 }} wrap>
        {config.create && can(config.create.permission) && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            data-testid={`${config.id}-create`}
            onClick={() => config.create && setDialog({ spec: config.create, record: undefined, key: "create" })}
          >
            {t("crud:create")}
          </Button>
        )}
        {config.export && can(config.export.permission) && (
          <Button icon={<DownloadOutlined />} onClick={exportRows} data-testid={`${config.id}-export`}>
            {t("crud:export")}
          </Button>
        )}
        {config.toolbar?.()}
        <Button icon={<ReloadOutlined />} onClick={() => void list.refetch()} data-testid={`${config.id}-refresh`}>
          {t("crud:refresh")}
        </Button>
      </Space>
      {list.error && <Alert type="error" showIcon title={(list.error as Error).message} style={{ marginBottom: 16 }} />}
      <Table<R>
        data-testid={`${config.id}-table`}
        rowKey="id"
        size="middle"
        scroll={{ x: config.scrollX ?? "max-content" }}
        loading={list.loading}
        columns={columns}
        dataSource={config.tree ? pruneChildren(records) : records}
        expandable={config.expand ? { expandedRowRender: (record) => config.expand?.(record, t) } : undefined}
        pagination={
          config.tree
            ? false
            : {
                current: list.state.current,
                pageSize: list.state.size,
                total: list.page?.total ?? 0,
                showSizeChanger: true,
                showTotal: () => t("crud:total", { total: shownTotal }),
              }
        }
        onChange={(pagination, _filters, sorter, extra) => {
          if (extra.action === "paginate") list.paginate(pagination.current ?? 1, pagination.pageSize ?? 10);
          if (extra.action === "sort") {
            const one = Array.isArray(sorter) ? sorter[0] : sorter;
            list.sortBy(
              one?.columnKey as string | undefined,
              one?.order === "ascend" ? "asc" : one?.order === "descend" ? "desc" : undefined,
            );
          }
        }}
      />
      {dialog && (
        <FormDialog<R>
          spec={dialog.spec}
          record={dialog.record}
          testId={`${config.id}-${dialog.key}-dialog`}
          onClose={() => setDialog(null)}
          onDone={() => {
            setDialog(null);
            refresh();
          }}
          onRefused={refresh}
        />
      )}
      {panel}
    </Card>
  );
}
