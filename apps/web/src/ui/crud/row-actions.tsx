import { DownOutlined } from "@ant-design/icons";
import { App, Button, Dropdown, Space, Tooltip, Typography } from "antd";
import type { TFunction } from "i18next";
import { call } from "../../api/client.ts";
import { confirmAction } from "../confirm.tsx";
import { useCan } from "./can.ts";
import type { CrudConfig, RowAction } from "./types.ts";

const text = <R,>(value: string | ((record: R) => string), record: R) => (typeof value === "function" ? value(record) : value);

/**
 * The buttons of one row: edit, the screen's own actions and delete, each only for a user holding
 * its permission. Actions that change or remove ask first.
 */
export function RowActions<R extends { id: number }>({
  config,
  record,
  t,
  openForm,
  refresh,
}: {
  config: CrudConfig<R>;
  record: R;
  t: TFunction;
  openForm: (action: string, record: R) => void;
  refresh: () => void;
}) {
  const { modal, message } = App.useApp();
  const can = useCan();
  const values = record as unknown as Record<string, unknown>;

  const confirmRun = (action: RowAction<R>) => {
    const run = async () => {
      try {
        const answer = await action.run?.(record);
        void message.success(t(action.success ?? "crud:done"));
        refresh();
        action.onAnswer?.(answer, record);
      } catch (error) {
        void message.error((error as Error).message);
      }
    };
    if (!action.confirm) return void run();
    confirmAction(modal, t, {
      title: t(text(action.confirm, record), values),
      okButtonProps: { danger: action.danger },
      onOk: run,
    });
  };

  const actions: RowAction<R>[] = [
    ...(config.edit
      ? [{ key: "edit", label: "crud:edit", permission: config.edit.permission, visible: config.edit.visible, form: config.edit }]
      : []),
    ...(config.actions ?? []),
  ];
  const remove = config.remove;
  if (remove)
    actions.push({
      key: "delete",
      label: "crud:delete",
      permission: remove.permission,
      visible: remove.visible,
      danger: true,
      confirm: remove.confirm ?? "crud:confirmDelete",
      run: (r) => call(remove.route, { body: { id: r.id } } as never),
      success: "crud:deleted",
    });

  const shown = actions.filter((a) => can(a.permission) && (!a.visible || a.visible(record)));
  const primary = config.rowButtons;
  const buttons = primary ? shown.filter((a) => primary.includes(a.key)) : shown;
  const more = primary ? shown.filter((a) => !primary.includes(a.key)) : [];
  const act = (action: RowAction<R>) => (action.form || action.panel ? openForm(action.key, record) : confirmRun(action));
  return (
    <Space size={0} wrap>
      {buttons.map((action) => {
        const reason = action.unavailable?.(record);
        return (
          <Tooltip key={action.key} title={reason ? t(reason) : undefined}>
            <Button
              type="link"
              size="small"
              danger={action.danger}
              disabled={reason !== undefined}
              data-testid={`${config.id}-${action.key}`}
              onClick={() => act(action)}
            >
              {t(text(action.label, record))}
            </Button>
          </Tooltip>
        );
      })}
      {more.length > 0 && (
        <Dropdown
          trigger={["click"]}
          menu={{
            items: more.map((action) => {
              const reason = action.unavailable?.(record);
              return {
                key: action.key,
                danger: action.danger,
                disabled: reason !== undefined,
                // The same test id as the button it would otherwise be; the reason under a refused one.
                label: (
                  <span data-testid={`${config.id}-${action.key}`}>
                    {t(text(action.label, record))}
                    {reason && (
                      <Typography.Text
                        type="secondary"
                        style={{ display: "block", fontSize: 12 }}
                        data-testid={`${config.id}-${action.key}-reason`}
                      >
                        {t(reason)}
                      </Typography.Text>
                    )}
                  </span>
                ),
                onClick: () => act(action),
              };
            }),
          }}
        >
          <Button type="link" size="small" data-testid={`${config.id}-more`}>
            {t("crud:more")} <DownOutlined />
          </Button>
        </Dropdown>
      )}
    </Space>
  );
}

/** The actions a row may show, to know whether the column is needed at all. */
export function hasRowActions<R extends { id: number }>(config: CrudConfig<R>, can: ReturnType<typeof useCan>) {
  return (
    (config.edit && can(config.edit.permission)) ||
    (config.remove && can(config.remove.permission)) ||
    (config.actions ?? []).some((a) => can(a.permission))
  );
}
