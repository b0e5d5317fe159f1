import { BATTERY_DEFAULTS, batteryDefaultChanges, checkSettingChange, type ScheduleProduct } from "@ess/domain";
import { App, Button, Space, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../api/client.ts";
import { confirmAction } from "../../../ui/confirm.tsx";
import { useRegisterFormat } from "../../device-live/components/page-read-panel.tsx";
import { useWriteSettings } from "../hooks/use-device-settings.ts";
import { settingProblemText } from "../setting-problem.ts";

export type Outcome = { type: "success" | "error" | "info"; text: string };

/**
 * "Restore defaults" for the battery settings a place shows (spec §2): the catalogue's defaults
 * of those the caller may set and the device holds otherwise, listed for confirmation, then sent as
 * one change record through the write path; `onRestored` reads the page back from the device. The
 * outcome goes to the form's own outcome line (`onOutcome`), which outlives the form's refresh.
 */
export function RestoreDefaults({
  deviceId,
  product,
  shown,
  current,
  settable,
  onRestored,
  blockedBy,
  onOutcome,
}: {
  deviceId: number;
  product: ScheduleProduct;
  shown: readonly string[];
  current: Readonly<Record<string, number | string | null>>;
  settable: (id: string) => boolean;
  /** Reads the page back and shows what the device now holds for `ids`. */
  onRestored: (ids: string[]) => Promise<unknown>;
  /** Why restoring must wait (unsaved edits that reading the device back would discard). */
  blockedBy?: string | undefined;
  onOutcome: (outcome: Outcome | null) => void;
}) {
  const { t } = useTranslation(["settings", "registers", "fields", "common", "errors"]);
  const { modal } = App.useApp();
  const format = useRegisterFormat();
  const write = useWriteSettings(deviceId);
  const setOutcome = onOutcome;
  const restorable = shown.filter((id) => id in BATTERY_DEFAULTS[product] && settable(id));
  if (restorable.length === 0) return null;

  const send = async (changes: Record<string, number>) => {
    const problems = checkSettingChange(product, current, changes);
    if (problems[0]) return setOutcome({ type: "error", text: settingProblemText(t, problems[0]) });
    try {
      const record = await write.mutateAsync({ values: changes, queueIfOffline: false });
      if (record.state === "acknowledged") {
        await onRestored(Object.keys(changes));
        setOutcome({ type: "success", text: t("settings:restore.done") });
      } else setOutcome({ type: "error", text: record.refusalText ?? t(`settings:states.${record.state}`) });
    } catch (error) {
      setOutcome({
        type: "error",
        text: error instanceof ApiError ? (error.fields[0]?.message ?? error.message) : t("errors:internal"),
      });
    }
  };

  const ask = () => {
    setOutcome(null);
    const changes = batteryDefaultChanges(product, restorable, current);
    if (Object.keys(changes).length === 0) return setOutcome({ type: "info", text: t("settings:restore.none") });
    confirmAction(modal, t, {
      title: t("settings:restore.confirm"),
      content: (
        <ul style={{ paddingInlineStart: 18, margin: 0 }} data-testid="restore-list">
          {Object.entries(changes).map(([id, value]) => (
            <li key={id}>{`${t(`registers:${id}`)}: ${format(id, current[id] ?? null)} → ${format(id, value)}`}</li>
          ))}
        </ul>
      ),
      okText: t("settings:restore.ok"),
      okButtonProps: { "data-testid": "restore-confirm" } as never,
      onOk: () => send(changes),
    });
  };

  return (
    <Space wrap style={{ marginBottom: 16 }}>
      <Button
        onClick={ask}
        loading={write.isPending}
        disabled={Boolean(blockedBy)}
        title={blockedBy}
        data-testid="restore-defaults"
      >
        {t("settings:restore.button")}
      </Button>
      <Typography.Text type="secondary">{t("settings:restore.help")}</Typography.Text>
    </Space>
  );
}
