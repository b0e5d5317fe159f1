import { Card, Result } from "antd";
import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { useSession } from "../../../app/session.ts";
import { useCan } from "../../../ui/crud/index.ts";

const DataBoard = lazy(() => import("../../board/components/data-board.tsx").then((m) => ({ default: m.DataBoard })));

/** The landing page after sign-in (/wel/index): the greeting, then the data board for those who may read it. */
export default function HomePage() {
  const { t } = useTranslation(["auth", "shell"]);
  const can = useCan();
  const user = useSession()?.userInfo?.user;
  return (
    <div style={{ display: "grid", gap: 16 }}>
      <Card data-testid="home-page" size="small">
        <Result
          status="success"
          style={{ padding: 8 }}
          title={<span data-testid="home-greeting">{t("home.greeting", { name: user?.name || user?.username || "" })}</span>}
          subTitle={t("home.signedInAs", { username: user?.username ?? "" })}
        />
      </Card>
      {can("board.view") && (
        <Suspense fallback={null}>
          <DataBoard />
        </Suspense>
      )}
    </div>
  );
}
