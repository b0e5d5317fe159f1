import { AUDIENCES, type Audience, CATALOGUE_PAGES } from "@ess/domain";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button, Card, Checkbox, Select, Space, Table, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { ApiError, call } from "../../../api/client.ts";

type Rights = { view: boolean; set: boolean };
type Row = { id: string; settable: boolean; rights: Record<Audience, Rights & { overridden: boolean }> };

/**
 * The display configuration: per live page, what back office, installers and end users may view
 * and set of each register. Changes override the catalogue's defaults; "default" drops the override.
 */
export default function DisplayConfigPage() {
  const { t } = useTranslation(["settings", "deviceLive", "registers", "errors"]);
  const client = useQueryClient();
  const [page, setPage] = useState(48);
  const [edits, setEdits] = useState<Record<string, Rights & { reset?: boolean }>>({});
  const list = useQuery({
    queryKey: ["register-visibility", page],
    queryFn: () => call(API.registerVisibility.list, { query: { page } }),
  });
  const save = useMutation({
    mutationFn: () =>
      call(API.registerVisibility.save, {
        body: {
          items: Object.entries(edits).map(([key, r]) => {
            const [registerId, audience] = key.split("|") as [string, Audience];
            return { registerId, audience, view: r.view, set: r.set, reset: r.reset ?? false };
          }),
        },
      }),
    onSuccess: () => {
      setEdits({});
      void client.invalidateQueries({ queryKey: ["register-visibility", page] });
    },
  });
  const rightsOf = (row: Row, a: Audience): Rights => edits[`${row.id}|${a}`] ?? row.rights[a];
  const change = (row: Row, a: Audience, next: Rights & { reset?: boolean }) =>
    setEdits((e) => ({ ...e, [`${row.id}|${a}`]: next }));

  return (
    <main style={{ padding: 24 }}>
      <Card title={t("settings:display.title")} data-testid="display-config">
        <Space wrap style={{ marginBottom: 16 }}>
          <Select
            value={page}
            onChange={(p) => {
              setPage(p);
              setEdits({});
            }}
            style={{ minWidth: 280 }}
            options={CATALOGUE_PAGES.map((p) => ({ value: p.page, label: t(`deviceLive:pages.${p.page}`) }))}
            data-testid="display-page"
          />
          <Button
            type="primary"
            disabled={Object.keys(edits).length === 0}
            loading={save.isPending}
            onClick={() => save.mutate()}
            data-testid="display-save"
          >
            {t("settings:display.save", { count: Object.keys(edits).length })}
          </Button>
        </Space>
        {save.error && (
          <Alert type="error" showIcon title={save.error instanceof ApiError ? save.error.message : t("errors:internal")} />
        )}
        <Table<Row>
          size="small"
          rowKey="id"
          loading={list.isPending}
          dataSource={list.data ?? []}
          pagination={{ pageSize: 50, showSizeChanger: false }}
          columns={[
            {
              title: t("settings:display.register"),
              dataIndex: "id",
              render: (id: string) => t(`registers:${id}`, { defaultValue: id }),
            },
            ...AUDIENCES.map((a) => ({
              title: t(`settings:display.audiences.${a}`),
              key: a,
              render: (_: unknown, row: Row) => {
                const r = rightsOf(row, a);
                return (
                  <Space data-testid={`display-${row.id}-${a}`}>
                    <Checkbox
                      checked={r.view}
                      onChange={(e) => change(row, a, { view: e.target.checked, set: e.target.checked && r.set })}
                    >
                      {t("settings:display.view")}
                    </Checkbox>
                    <Checkbox
                      checked={r.set}
                      disabled={!row.settable}
                      onChange={(e) => change(row, a, { view: r.view || e.target.checked, set: e.target.checked })}
                    >
                      {t("settings:display.set")}
                    </Checkbox>
                    {row.rights[a].overridden && !edits[`${row.id}|${a}`] && (
                      <Tag
                        color="orange"
                        style={{ cursor: "pointer" }}
                        onClick={() => change(row, a, { ...row.rights[a], reset: true })}
                      >
                        {t("settings:display.overridden")}
                      </Tag>
                    )}
                  </Space>
                );
              },
            })),
          ]}
        />
      </Card>
    </main>
  );
}
