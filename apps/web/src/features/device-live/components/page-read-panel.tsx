import type { PageAnswerData } from "@ess/contracts";
import { CATALOGUE_PAGES, getRegister } from "@ess/domain";
import { Alert, Button, Card, Select, Space, Table } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../api/client.ts";
import { usePageRead } from "../hooks/use-device-live.ts";

/** A register value as an installer reads it: enumeration label, version, or number with unit. */
export function useRegisterFormat() {
  const { t } = useTranslation(["enums", "registers"]);
  return (id: string, value: number | string | null) => {
    const r = getRegister(id);
    if (value === null) return "—";
    if (typeof value === "string" || !r) return String(value);
    if (r.enum) return t(`enums:${r.enum}.${value}`, { defaultValue: String(value) });
    if (r.type === "version") return (value / 100).toFixed(2);
    return r.unit ? `${value} ${r.unit}` : String(value);
  };
}

/** Picks a live page of the device's model, asks the device for it and lists what it answered. */
export function PageReadPanel({ deviceId, phaseType }: { deviceId: number; phaseType: number | null }) {
  const { t } = useTranslation(["deviceLive", "registers"]);
  const pages = CATALOGUE_PAGES.filter((p) => phaseType === null || (p.product === "three") === (phaseType === 2));
  const [page, setPage] = useState<number>(pages[0]?.page ?? 41);
  const read = usePageRead(deviceId);
  const format = useRegisterFormat();
  const answer: PageAnswerData | undefined = read.data;
  const rows = answer ? Object.entries(answer.values).map(([id, value]) => ({ id, value })) : [];

  return (
    <Card title={t("pageRead.title")} size="small">
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          value={page}
          onChange={setPage}
          style={{ minWidth: 260 }}
          data-testid="page-select"
          options={pages.map((p) => ({ value: p.page, label: t(`pages.${p.page}`) }))}
        />
        <Button type="primary" loading={read.isPending} onClick={() => read.mutate(page)} data-testid="page-read">
          {t("pageRead.read")}
        </Button>
      </Space>
      {read.error && (
        <Alert
          type="error"
          showIcon
          title={read.error instanceof ApiError ? read.error.message : t("errors:internal")}
          data-testid="page-read-error"
        />
      )}
      {answer && !read.isPending && (
        <Table
          size="small"
          rowKey="id"
          data-testid="page-read-answer"
          pagination={{ pageSize: 20, showSizeChanger: false }}
          dataSource={rows}
          columns={[
            {
              title: t("pageRead.register"),
              dataIndex: "id",
              render: (id: string) => t(`registers:${id}`, { defaultValue: id }),
            },
            { title: t("pageRead.value"), dataIndex: "value", render: (v: number | string | null, row) => format(row.id, v) },
          ]}
        />
      )}
    </Card>
  );
}
