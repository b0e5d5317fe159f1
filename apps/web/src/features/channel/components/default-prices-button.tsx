import { Button } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSession } from "../../../app/session.ts";
import { useCan } from "../../../ui/crud/index.ts";
import { UserPricesDialog } from "./user-prices-dialog.tsx";

/**
 * "Default price settings" (spec §2 Ordinary-user screen): the prices of users without their own.
 * The default is the tenant's, so only back-office staff who may edit prices are offered it.
 */
export function DefaultPricesButton() {
  const { t } = useTranslation(["channel"]);
  const can = useCan();
  const session = useSession();
  const [open, setOpen] = useState(false);
  if (!can("tariff.edit") || session?.userInfo?.user.userType !== 0) return null;
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="end-users-default-prices">
        {t("channel:prices.default")}
      </Button>
      {open && <UserPricesDialog user={null} onClose={() => setOpen(false)} />}
    </>
  );
}
