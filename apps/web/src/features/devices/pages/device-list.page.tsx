import { SettingOutlined, UploadOutlined } from "@ant-design/icons";
import { Button, Card, Checkbox, Popover, Space } from "antd";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { CrudPage, useCan } from "../../../ui/crud/index.ts";
import { CredentialDialog } from "../components/credential-dialog.tsx";
import { ImportDialog } from "../components/import-dialog.tsx";
import { DEVICE_COLUMNS, deviceList } from "./device-list.config.tsx";

const HIDDEN_KEY = "ess.devices.hiddenColumns";
const storedHidden = (): string[] => {
  try {
    return JSON.parse(localStorage.getItem(HIDDEN_KEY) ?? "[]") as string[];
  } catch {
    return [];
  }
};

/** The device list: the generic list with column choice (kept per browser) and the batch import. */
export default function DeviceListPage() {
  const { t } = useTranslation(["devices", "enums"]);
  const can = useCan();
  const [hidden, setHidden] = useState<string[]>(storedHidden);
  const [importing, setImporting] = useState(false);
  // The data board's drill-down opens the list on one device status (?status=2), shown in the status filter.
  const [params] = useSearchParams();
  const drillStatus = params.get("status");
  const config = useMemo(
    () => ({
      ...deviceList,
      columns: DEVICE_COLUMNS.filter((c) => c.key === "sn" || !hidden.includes(c.key)),
      ...(drillStatus !== null ? { initialFilters: { status: Number(drillStatus) } } : {}),
    }),
    [hidden, drillStatus],
  );
  const choose = (keys: string[]) => {
    const next = DEVICE_COLUMNS.map((c) => c.key).filter((k) => !keys.includes(k));
    localStorage.setItem(HIDDEN_KEY, JSON.stringify(next));
    setHidden(next);
  };

  return (
    <Space orientation="vertical" style={{ width: "100%" }} size={12}>
      <Card size="small">
        <Space wrap>
          {can("device.import") && (
            <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} data-testid="devices-import">
              {t("import.title")}
            </Button>
          )}
          <Popover
            trigger="click"
            title={t("columnChoice")}
            content={
              <Checkbox.Group
                style={{ display: "grid", gap: 4 }}
                value={DEVICE_COLUMNS.map((c) => c.key).filter((k) => !hidden.includes(k))}
                onChange={(keys) => choose(keys as string[])}
                options={DEVICE_COLUMNS.map((c) => ({ value: c.key, label: t(c.title ?? c.key), disabled: c.key === "sn" }))}
              />
            }
          >
            <Button icon={<SettingOutlined />} data-testid="devices-columns">
              {t("columnChoice")}
            </Button>
          </Popover>
        </Space>
      </Card>
      <CrudPage key={drillStatus ?? "all"} config={config} />
      <ImportDialog open={importing} onClose={() => setImporting(false)} />
      <CredentialDialog />
    </Space>
  );
}
