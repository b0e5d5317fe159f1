import { API } from "@ess/contracts";
import { PRODUCT } from "@ess/domain";
import { useMutation } from "@tanstack/react-query";
import { Button, Layout, Result, Space, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { call } from "../../../api/client.ts";
import { sessionStore, useSession } from "../../../app/session.ts";
import { LanguageSelect } from "../../../ui/language-select.tsx";

/** The landing page after sign-in; the data board replaces its body. */
export default function HomePage() {
  const { t } = useTranslation(["auth", "common"]);
  const session = useSession();
  const navigate = useNavigate();
  const user = session?.userInfo?.user;
  const signOut = useMutation({
    mutationFn: () => call(API.auth.logout),
    onSettled: () => {
      sessionStore.clear();
      void navigate("/login", { replace: true });
    },
  });

  return (
    <Layout style={{ minHeight: "100vh" }}>
      <Layout.Header style={{ display: "flex", alignItems: "center", justifyContent: "space-between", background: "#fff" }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t("common:appName")}
        </Typography.Title>
        <Space>
          <LanguageSelect />
          <Button onClick={() => signOut.mutate()} loading={signOut.isPending} data-testid="sign-out">
            {t("common:actions.signOut")}
          </Button>
        </Space>
      </Layout.Header>
      <Layout.Content style={{ padding: 24 }}>
        <Result
          status="success"
          title={<span data-testid="home-greeting">{t("home.greeting", { name: user?.name || user?.username || "" })}</span>}
          subTitle={t("home.signedInAs", { username: user?.username ?? "" })}
        />
      </Layout.Content>
      <Layout.Footer style={{ textAlign: "center" }}>
        {t("common:footer", { version: PRODUCT.version, copyright: PRODUCT.copyright, build: __APP_BUILD__ })}
      </Layout.Footer>
    </Layout>
  );
}
