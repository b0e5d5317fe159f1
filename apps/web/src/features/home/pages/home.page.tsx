import { Card, Result } from "antd";
import { useTranslation } from "react-i18next";
import { useSession } from "../../../app/session.ts";

/** The landing page after sign-in (/wel/index); the data board replaces its body. */
export default function HomePage() {
  const { t } = useTranslation(["auth", "shell"]);
  const user = useSession()?.userInfo?.user;
  return (
    <Card data-testid="home-page">
      <Result
        status="success"
        title={<span data-testid="home-greeting">{t("home.greeting", { name: user?.name || user?.username || "" })}</span>}
        subTitle={t("home.signedInAs", { username: user?.username ?? "" })}
      />
    </Card>
  );
}
