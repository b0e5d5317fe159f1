import { Button, Card, Result, Space } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useCan } from "../../../ui/crud/index.ts";
import { BulkDevicePicker } from "../components/bulk-device-picker.tsx";
import { BulkOperationForm } from "../components/bulk-operation-form.tsx";
import { BulkOutcome } from "../components/bulk-outcome.tsx";

/**
 * Bulk settings and commands (`/device/bulk`): pick devices with the device list's filters,
 * choose one setting or one command, send it to them all, and follow each device's outcome.
 */
export default function BulkOperationPage() {
  const { t } = useTranslation(["bulk"]);
  const can = useCan();
  const [deviceIds, setDeviceIds] = useState<number[]>([]);
  const [bulkId, setBulkId] = useState<number | null>(null);
  if (!can("device.param.bulk")) {
    return <Result status="403" title={t("bulk:forbidden")} data-testid="bulk-forbidden" />;
  }
  return (
    <main style={{ padding: 24 }} data-testid="bulk-page">
      <Space direction="vertical" size="large" style={{ width: "100%" }}>
        <Card title={t("bulk:devices.title")}>
          <BulkDevicePicker selected={deviceIds} onChange={setDeviceIds} />
        </Card>
        <Card title={t("bulk:operation.title")}>
          <BulkOperationForm deviceIds={deviceIds} onSent={setBulkId} />
        </Card>
        {bulkId !== null && (
          <Card
            title={t("bulk:outcome.title", { id: bulkId })}
            extra={<Button onClick={() => setBulkId(null)}>{t("bulk:outcome.close")}</Button>}
          >
            <BulkOutcome key={bulkId} bulkId={bulkId} />
          </Card>
        )}
      </Space>
    </main>
  );
}
