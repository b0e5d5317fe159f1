import { PRODUCT } from "@ess/domain/product.ts";
import { useMutation } from "@tanstack/react-query";
import { Alert, Button, Form, Input } from "antd";
import { useTranslation } from "react-i18next";
import { Navigate, useNavigate } from "react-router";
import { API } from "../../../api/api.ts";
import { ApiError, call } from "../../../api/client.ts";
import { sessionStore, useSession } from "../../../app/session.ts";
import { LanguageNativeSelect } from "../../../ui/language-native-select.tsx";

interface Credentials {
  username: string;
  password: string;
}

const CARD = {
  width: "100%",
  maxWidth: 400,
  padding: 24,
  background: "#fff",
  borderRadius: 8,
  boxShadow: "0 1px 2px rgba(0,0,0,0.06), 0 1px 6px rgba(0,0,0,0.04)",
} as const;
const SECONDARY = { color: "rgba(0,0,0,0.55)", marginTop: 0 } as const;

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
      {/* Plain markup instead of antd's Card and Typography keeps the sign-in page light (issue 4 budget). */}
      <section style={CARD}>
        <div style={{ display: "flex", justifyContent: "space-between", alignItems: "center", marginBottom: 16, gap: 8 }}>
          <h1 style={{ margin: 0, fontSize: 24, fontWeight: 600 }}>{t("common:appName")}</h1>
          <LanguageNativeSelect />
        </div>
        <p style={SECONDARY}>{t("login.welcome")}</p>
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
        <p style={{ ...SECONDARY, marginTop: 16, marginBottom: 0, fontSize: 12 }}>{t("login.forgot")}</p>
      </section>
    </main>
  );
}
