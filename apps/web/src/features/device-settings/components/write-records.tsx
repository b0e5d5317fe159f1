import type { WriteRecord } from "@ess/contracts";
import { CONSOLE_COMMANDS } from "@ess/domain";
import { Table, Tag } from "antd";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../../ui/format/date-time.ts";
import { useRegisterFormat } from "../../device-live/components/page-read-panel.tsx";
import { useWriteRecords } from "../hooks/use-device-settings.ts";

/** The colour of each record state, shared by the device's records and a bulk operation's outcome. */
export const STATE_COLOUR: Record<WriteRecord["state"], string> = {
  queued: "default",
  sent: "processing",
  acknowledged: "success",
  refused: "error",
  timed_out: "warning",
};

/** Who changed what (old → new), when, and how it ended; states move as the device answers. */
export function WriteRecords({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation(["settings", "registers", "enums", "tariffs"]);
  const records = useWriteRecords(deviceId);
  // Values as the settings show them: an option's label, a number with its unit.
  const format = useRegisterFormat();
  return (
    <Table<WriteRecord>
      size="small"
      rowKey="id"
      loading={records.isPending}
      dataSource={records.data?.records ?? []}
      pagination={false}
      data-testid="write-records"
      columns={[
        {
          title: t("settings:records.time"),
          dataIndex: "createdAt",
          render: (ms: number) => formatDateTime(ms),
        },
        { title: t("settings:records.by"), dataIndex: "createdBy" },
        {
          title: t("settings:records.what"),
          key: "what",
          render: (_, r) =>
            r.kind === "command"
              ? r.command === CONSOLE_COMMANDS.clearProfit
                ? t("tariffs:clearProfit.command")
                : t(`enums:deviceCommand.${r.command}`)
              : r.changes
                  .map(
                    (c) =>
                      `${t(`registers:${c.key}`, { defaultValue: c.key })}: ${format(c.key, c.old)} → ${format(c.key, c.new)}`,
                  )
                  .join("; "),
        },
        {
          title: t("settings:records.state"),
          dataIndex: "state",
          render: (s: WriteRecord["state"], r) => (
            <Tag color={STATE_COLOUR[s]} data-testid={`record-state-${r.id}`} title={r.refusalText ?? undefined}>
              {t(`settings:states.${s}`)}
            </Tag>
          ),
        },
        { title: t("settings:records.reason"), dataIndex: "refusalText", render: (v: string | null) => v ?? "" },
      ]}
    />
  );
}
