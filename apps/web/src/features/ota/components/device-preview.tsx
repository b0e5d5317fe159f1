import { useQuery } from "@tanstack/react-query";
import { Alert, Form, Table, Tag } from "antd";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";

/**
 * What a campaign form would reach: the devices of the filtered set in the caller's scope, each
 * with its compatibility with the chosen version (model, current version, an upgrade under way).
 * It reads the form's version and filter as they are typed.
 */
export function DevicePreview({ testId }: { testId: string }) {
  const { t } = useTranslation(["ota", "enums"]);
  const form = Form.useFormInstance();
  const versionId = Form.useWatch("versionId", form) as number | undefined;
  const filter = (Form.useWatch("filter", form) ?? {}) as Record<string, unknown>;
  const query = { versionId, sn: filter.sn, phaseType: filter.phaseType, onlineStatus: filter.onlineStatus };
  const preview = useQuery({
    queryKey: ["ota-preview", query],
    queryFn: () => call(API.ota.preview, { query } as never),
    enabled: versionId !== undefined,
    // Devices come online, report their model and finish upgrades while the form is open.
    refetchInterval: 5000,
  });
  if (versionId === undefined) return null;
  const rows = preview.data ?? [];
  const compatible = rows.filter((d) => d.compatible).length;
  return (
    <div data-testid={testId}>
      <Alert
        type={compatible > 0 ? "info" : "warning"}
        showIcon
        title={t("matched", { total: rows.length, compatible })}
        style={{ marginBottom: 8 }}
        data-testid={`${testId}-summary`}
      />
      <Table
        size="small"
        rowKey="id"
        loading={preview.isFetching}
        dataSource={rows}
        pagination={{ pageSize: 5, size: "small" }}
        columns={[
          { key: "sn", dataIndex: "sn", title: t("sn") },
          { key: "currentVersion", dataIndex: "currentVersion", title: t("currentVersion"), render: (v) => v ?? "—" },
          {
            key: "compatible",
            title: t("compatible"),
            render: (_, d) =>
              d.compatible ? <Tag color="green">{t("compatible")}</Tag> : <Tag color="orange">{t(d.reason ?? "")}</Tag>,
          },
        ]}
      />
    </div>
  );
}
