import { Button } from "antd";
import { useTranslation } from "react-i18next";
import { ConfirmPopover } from "../../../ui/confirm.tsx";

/**
 * "Read again": reads the device and shows what it holds, discarding what was typed. With unsaved
 * edits it asks first; without any it reads at once.
 */
export function ReadAgainButton({
  unsaved,
  loading,
  onRead,
  testId,
}: {
  /** How many fields differ from the device's last answer. */
  unsaved: number;
  loading: boolean;
  onRead: () => Promise<unknown>;
  testId: string;
}) {
  const { t } = useTranslation(["settings"]);
  return (
    <ConfirmPopover
      title={t("settings:form.discard")}
      disabled={unsaved === 0}
      onConfirm={() => void onRead()}
      okText={t("settings:form.discardOk")}
      okButtonProps={{ danger: true, "data-testid": `${testId}-confirm` } as never}
      cancelButtonProps={{ "data-testid": `${testId}-cancel` } as never}
    >
      <Button onClick={() => unsaved === 0 && void onRead()} loading={loading} data-testid={testId}>
        {t("settings:form.reload")}
      </Button>
    </ConfirmPopover>
  );
}
