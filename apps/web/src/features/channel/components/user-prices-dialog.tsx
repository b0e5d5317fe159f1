import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Modal, Spin } from "antd";
import { useTranslation } from "react-i18next";
import { API } from "../../../api/api.ts";
import { ApiError, call } from "../../../api/client.ts";
import { TariffEditor } from "../../device-settings/components/tariff-editor.tsx";

/**
 * Electricity prices of one end user (spec §2 Ordinary-user screen: price settings, purchase and
 * sale periods), or the tenant's default prices when `user` is null. The same editor and rules as
 * a device's price page; a user without prices of their own starts from the default.
 */
export function UserPricesDialog({ user, onClose }: { user: { id: number; username: string } | null; onClose: () => void }) {
  const { t } = useTranslation(["channel", "tariffs", "errors"]);
  const client = useQueryClient();
  const key = ["user-tariff", user?.id ?? "default"];
  const tariff = useQuery({
    queryKey: key,
    queryFn: () => call(API.tariff.get, { query: user ? { userId: user.id } : {} }),
    retry: false,
  });
  const testId = user ? "user-prices" : "default-prices";
  return (
    <Modal
      open
      width={980}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
      title={user ? t("channel:prices.userTitle", { username: user.username }) : t("channel:prices.defaultTitle")}
    >
      <div data-testid={`${testId}-dialog`}>
        {tariff.error && (
          <Alert type="warning" showIcon title={tariff.error instanceof ApiError ? tariff.error.message : t("errors:internal")} />
        )}
        {!tariff.data && !tariff.error && <Spin />}
        {tariff.data && (
          <>
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 16 }}
              title={
                user
                  ? t(tariff.data.isDefault ? "tariffs:usingDefault" : "channel:prices.ownHelp")
                  : t("channel:prices.defaultHelp")
              }
            />
            <TariffEditor
              tariff={tariff.data}
              testId={testId}
              onSaved={() => client.invalidateQueries({ queryKey: ["user-tariff"] })}
            />
          </>
        )}
      </div>
    </Modal>
  );
}
