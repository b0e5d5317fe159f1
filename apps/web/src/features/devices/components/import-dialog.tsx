import { DownloadOutlined, KeyOutlined, UploadOutlined } from "@ant-design/icons";
import type { ImportResult } from "@ess/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Modal, Space, Table, Tag, Upload } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { downloadExport } from "../../../ui/crud/index.ts";
import { credentialsCsv, saveTextFile } from "./issued-credential.ts";

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** An Excel workbook goes as its bytes in base64, a CSV file as its text. */
async function importBody(file: File) {
  if (!/\.xlsx$/i.test(file.name) && file.type !== XLSX_TYPE)
    return { fileName: file.name, format: "csv" as const, content: await file.text() };
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { fileName: file.name, format: "xlsx" as const, content: btoa(binary) };
}

/**
 * Batch import: download the template, choose an Excel (.xlsx) or CSV file, and read every row's outcome
 * (succeeded, or failed with its reasons). Failed rows change nothing; the file may be sent again.
 * The broker secrets of the devices registered are offered once, as a CSV file built here.
 */
export function ImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation(["devices", "crud"]);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [result, setResult] = useState<ImportResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async (file: File) => {
    setBusy(true);
    setError(null);
    try {
      const answer = await call(API.device.import, { body: await importBody(file) });
      setResult(answer);
      void message[answer.failed === 0 ? "success" : "warning"](
        t("import.summary", { succeeded: answer.succeeded, failed: answer.failed }),
      );
      void queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith("crud") });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  // Closing forgets the outcome, and with it the secrets: they are offered this once only.
  const close = () => {
    setResult(null);
    setError(null);
    onClose();
  };

  return (
    <Modal
      open={open}
      title={t("import.title")}
      onCancel={close}
      footer={<Button onClick={close}>{t("crud:cancel")}</Button>}
      width={760}
      data-testid="devices-import-dialog"
      destroyOnHidden
    >
      <Space wrap style={{ marginBottom: 16 }}>
        <Button
          icon={<DownloadOutlined />}
          onClick={() =>
            void downloadExport(API.device.importTemplate, {}, "device-import-template.xlsx").catch(
              (e: Error) => void message.error(e.message),
            )
          }
          data-testid="devices-import-template"
        >
          {t("import.template")}
        </Button>
        <Upload
          accept={`.xlsx,.csv,text/csv,${XLSX_TYPE}`}
          showUploadList={false}
          beforeUpload={(file) => {
            void send(file);
            return false;
          }}
        >
          <Button type="primary" icon={<UploadOutlined />} loading={busy} data-testid="devices-import-file">
            {t("import.choose")}
          </Button>
        </Upload>
      </Space>
      <Alert type="info" showIcon title={t("import.help")} style={{ marginBottom: 16 }} />
      {error && <Alert type="error" showIcon title={error} data-testid="devices-import-error" style={{ marginBottom: 16 }} />}
      {result && result.credentials.length > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="devices-import-credentials"
          title={t("credentials.importShownOnce", { count: result.credentials.length })}
          action={
            <Button
              icon={<KeyOutlined />}
              onClick={() =>
                saveTextFile(
                  credentialsCsv(result.credentials, [t("columns.sn"), t("credentials.secret"), t("credentials.topicPrefix")]),
                  "device-credentials.csv",
                )
              }
              data-testid="devices-import-credentials-download"
            >
              {t("credentials.download")}
            </Button>
          }
        />
      )}
      {result && (
        <Table
          size="small"
          rowKey="line"
          data-testid="devices-import-result"
          dataSource={result.rows}
          pagination={{ pageSize: 10, showSizeChanger: false }}
          columns={[
            { title: t("import.line"), dataIndex: "line", width: 70 },
            { title: t("columns.sn"), dataIndex: "sn" },
            {
              title: t("import.outcome"),
              dataIndex: "ok",
              render: (ok: boolean, row) => (
                <Tag color={ok ? "green" : "red"} data-testid={`import-row-${row.line}`}>
                  {t(ok ? "import.succeeded" : "import.failed")}
                </Tag>
              ),
            },
            { title: t("import.reasons"), dataIndex: "reasons", render: (reasons: string[]) => reasons.join("; ") },
          ]}
        />
      )}
    </Modal>
  );
}
