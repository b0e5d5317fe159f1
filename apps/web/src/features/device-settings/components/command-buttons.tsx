import { ENUMS } from "@ess/domain";
import { Button, Space } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../api/client.ts";
import { ConfirmPopover } from "../../../ui/confirm.tsx";
import { useSendCommand } from "../hooks/use-device-settings.ts";
import { ClearProfitButton } from "./clear-profit-button.tsx";
import { type Outcome, OutcomeAlert } from "./outcome-alert.tsx";

/** The commands of spec §4, each behind a confirmation; the outcome is recorded like a setting. */
export function CommandButtons({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation(["settings", "enums", "errors"]);
  const send = useSendCommand(deviceId);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const run = async (command: number) => {
    try {
      const r = await send.mutateAsync({ command, queueIfOffline: false });
      setOutcome({ ok: r.state === "acknowledged", text: r.refusalText ?? t(`settings:states.${r.state}`) });
    } catch (error) {
      setOutcome({ ok: false, text: error instanceof ApiError ? error.message : t("errors:internal") });
    }
  };
  return (
    <Space direction="vertical" style={{ width: "100%" }}>
      <Space wrap>
        {ENUMS.deviceCommand.values.map((c) => (
          <ConfirmPopover
            key={c}
            title={t("settings:commands.confirm", { command: t(`enums:deviceCommand.${c}`) })}
            onConfirm={() => void run(c)}
          >
            <Button danger={c === 1 || c === 5} data-testid={`command-${c}`}>
              {t(`enums:deviceCommand.${c}`)}
            </Button>
          </ConfirmPopover>
        ))}
        <ClearProfitButton deviceId={deviceId} />
      </Space>
      <OutcomeAlert outcome={outcome} testId="command-outcome" />
    </Space>
  );
}
