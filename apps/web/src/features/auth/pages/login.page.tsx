import { PRODUCT } from "@ess/domain/product.ts";
import { useMutation } from "@tanstack/react-query";
import { Alert, Button, Card, Form, Input, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { Navigate, useNavigate } from "react-router";
import { API } from "../../../api/api.ts";
import { ApiError, call } from "../../../api/client.ts";
import { sessionStore, useSession } from "../../../app/session.ts";
import { LanguageSelect } from "../../../ui/language-select.tsx";

interface Credentials {
  username: string;
  password: string;
}

export default function LoginPage() {
  const { t } = useTranslation(["auth", "common"]);
  const navigate = useNavigate();
  const session = useSession();
  const signIn = useMutation({
    mutationFn: async (values: Credentials) => {
      const token = await call(API.auth.login, { query: { grant_type: "admin" }, body: values });
      sessionStore.signIn(token);
      sessionStore.setUserInfo(await call(API.auth.userInfo));
    },
    onSuccess: () => void navigate(PRODUCT.homePath, { replace: true }),
  });

  if (session?.userInfo && !signIn.isPending) return <Navigate to={PRODUCT.homePath} replace />;
  const error = signIn.error instanceof ApiError ? signIn.error.message : signIn.error ? t("errors:internal") : null;

  return (
    <main style={{ minHeight: "100vh", display: "grid", placeItems: "center", padding: 16, background: "#f0f2f5" }}>
      <Card style={{ width: "100%", maxWidth: 400 }}>
        <div style={{ display: "flex", justifyContent: "space-between", alignItems: "center", marginBottom: 16, gap: 8 }}>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {t("common:appName")}
          </Typography.Title>
          <LanguageSelect />
        </div>
        <Typography.Paragraph type="secondary">{t("login.welcome")}</Typography.Paragraph>
        <Form<Credentials> layout="vertical" onFinish={(values) => signIn.mutate(values)} requiredMark={false}>
          <Form.Item name="username" rules={[{ required: true, message: t("login.username") }]}>
            <Input autoComplete="username" placeholder={t("login.username")} data-testid="login-username" />
          </Form.Item>
          <Form.Item name="password" rules={[{ required: true, message: t("login.password") }]}>
            <Input.Password autoComplete="current-password" placeholder={t("login.password")} data-testid="login-password" />
          </Form.Item>
          {error && <Alert type="error" title={error} showIcon style={{ marginBottom: 16 }} data-testid="login-error" />}
          <Button type="primary" htmlType="submit" block loading={signIn.isPending} data-testid="login-submit">
            {t("login.submit")}
          </Button>
        </Form>
        <Typography.Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0, fontSize: 12 }}>
          {t("login.forgot")}
        </Typography.Paragraph>
      </Card>
    </main>
  );
}
