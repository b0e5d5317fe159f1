import { App, Button, Modal, Space, Table, Typography } from "antd";
import dayjs from "dayjs";
import { useTranslation } from "react-i18next";
import { API } from "../../api/api.ts";
import { ApiError, call } from "../../api/client.ts";
import { confirmAction } from "../../ui/confirm.tsx";
import { formatDateTime } from "../../ui/format/date-time.ts";
import { type ErrorLogEntry, errorLogStore, useErrorLog } from "../state/error-log.ts";

/** Spec §9: ten entries per page. */
export const ERROR_LOG_PAGE_SIZE = 10;

/** The fullscreen error-log dialog: entries with expandable stacks, upload and clear (spec §2, §8). */
export function ErrorLogDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation("shell");
  const { modal, message } = App.useApp();
  const entries = useErrorLog();

  const upload = () =>
    confirmAction(modal, t, {
      title: t("errorLog.uploadConfirm"),
      onOk: async () => {
        const sent = errorLogStore.get();
        try {
          await call(API.errorLog.upload, { body: sent.map(({ id: _id, ...entry }) => entry) });
        } catch (error) {
          message.error(error instanceof ApiError ? error.message : t("errors:internal"));
          return;
        }
        // Entries recorded while the upload ran stay for the next one.
        const ids = new Set(sent.map((e) => e.id));
        errorLogStore.update((log) => log.filter((e) => !ids.has(e.id)));
        message.success(t("errorLog.uploaded"));
      },
    });
  const clear = () =>
    confirmAction(modal, t, {
      title: t("errorLog.clearConfirm"),
      onOk: () => {
        errorLogStore.reset();
        message.success(t("errorLog.cleared"));
      },
    });

  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t("errorLog.title")}
      footer={null}
      width="100vw"
      style={{ top: 0, maxWidth: "100vw", margin: 0, paddingBottom: 0 }}
      styles={{ body: { minHeight: "calc(100vh - 110px)" } }}
      destroyOnHidden
      data-testid="error-log-dialog"
    >
      <Space wrap style={{ marginBottom: 12, justifyContent: "space-between", width: "100%" }}>
        <Typography.Text type="secondary">{t("errorLog.count", { count: entries.length })}</Typography.Text>
        <Space wrap>
          <Button type="primary" onClick={upload} disabled={entries.length === 0} data-testid="error-log-upload">
            {t("errorLog.upload")}
          </Button>
          <Button danger onClick={clear} disabled={entries.length === 0} data-testid="error-log-clear">
            {t("errorLog.clear")}
          </Button>
        </Space>
      </Space>
      <Table<ErrorLogEntry>
        rowKey="id"
        size="small"
        dataSource={entries}
        locale={{ emptyText: t("errorLog.empty") }}
        pagination={{ pageSize: ERROR_LOG_PAGE_SIZE, showSizeChanger: false, hideOnSinglePage: false }}
        scroll={{ x: 800 }}
        expandable={{
          expandedRowRender: (entry) => (
            <div data-testid="error-log-stack">
              <Typography.Text strong>{t("errorLog.stack")}</Typography.Text>
              <pre style={{ whiteSpace: "pre-wrap", wordBreak: "break-all", fontSize: 12 }}>{entry.stack ?? t("info.none")}</pre>
              {entry.info && (
                <>
                  <Typography.Text strong>{t("errorLog.info")}</Typography.Text>
                  <pre style={{ whiteSpace: "pre-wrap", wordBreak: "break-all", fontSize: 12 }}>{entry.info}</pre>
                </>
              )}
            </div>
          ),
        }}
        columns={[
          { title: t("errorLog.type"), dataIndex: "type", width: 90 },
          { title: t("errorLog.url"), dataIndex: "url", ellipsis: true, width: 260 },
          { title: t("errorLog.message"), dataIndex: "message", ellipsis: true },
          { title: t("errorLog.time"), dataIndex: "time", width: 170, render: (time: string) => formatDateTime(dayjs(time)) },
        ]}
      />
    </Modal>
  );
}
