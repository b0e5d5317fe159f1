import { useMutation, useQueryClient } from "@tanstack/react-query";
import { App, Button } from "antd";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { ApiError, call } from "../../../api/client.ts";
import { confirmAction } from "../../../ui/confirm.tsx";
import { useCan } from "../../../ui/crud/index.ts";

/**
 * Clear profit with the confirmation of spec §5 ("This action will reset all profit data. Please
 * confirm.", warning that daily, monthly, yearly and total profit go); the clear is a change record.
 */
export function ClearProfitButton({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation(["tariffs", "errors"]);
  const { modal, message } = App.useApp();
  const can = useCan();
  const client = useQueryClient();
  const clear = useMutation({
    mutationFn: () => call(API.tariff.clearProfit, { body: { deviceId } }),
    onSuccess: () => {
      void message.success(t("tariffs:clearProfit.done"));
      void client.invalidateQueries({ queryKey: ["device-revenue", deviceId] });
      void client.invalidateQueries({ queryKey: ["device-write-records", deviceId] });
    },
    onError: (error) => void message.error(error instanceof ApiError ? error.message : t("errors:internal")),
  });
  if (!can("device.command.send")) return null;
  return (
    <Button
      danger
      loading={clear.isPending}
      data-testid="clear-profit"
      onClick={() =>
        confirmAction(modal, t, {
          title: t("tariffs:clearProfit.confirm"),
          content: t("tariffs:clearProfit.warning"),
          okText: t("tariffs:clearProfit.ok"),
          okButtonProps: { danger: true, "data-testid": "clear-profit-ok" } as never,
          onOk: () => clear.mutate(),
        })
      }
    >
      {t("tariffs:clearProfit.button")}
    </Button>
  );
}
