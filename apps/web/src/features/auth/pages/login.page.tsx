import { PRODUCT } from "@ess/domain/product.ts";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Alert, Button, Form, Input } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useNavigate } from "react-router";
import { API } from "../../../api/api.ts";
import { ApiError, call } from "../../../api/client.ts";
import { sessionStore, useSession } from "../../../app/session.ts";
import { LanguageNativeSelect } from "../../../ui/language-native-select.tsx";
import { CaptchaField } from "../components/captcha-field.tsx";
import { randomKey } from "../components/random-key.ts";
import { SlideVerify } from "../components/slide-verify.tsx";

interface Credentials {
  username: string;
  password: string;
  code?: string;
}

// Plain markup instead of antd's Card and Typography keeps the sign-in page within its budget of
// gzipped JavaScript (the browser test measures it).
const CARD = {
  width: "100%",
  maxWidth: 400,
  padding: 24,
  background: "#fff",
  borderRadius: 8,
  boxShadow: "0 1px 2px rgba(0,0,0,0.06), 0 1px 6px rgba(0,0,0,0.04)",
} as const;
const SECONDARY = { color: "rgba(0,0,0,0.55)", marginTop: 0 } as const;

/**
 * Sign-in (spec §2 Login page): welcome, account and password, the slide verification (or, for
 * those who cannot drag, the captcha picture), the server's translated refusals, and the forced
 * password change at first sign-in.
 */
export default function LoginPage() {
  const { t } = useTranslation(["auth", "common"]);
  const navigate = useNavigate();
  const session = useSession();
  const settings = useQuery({ queryKey: ["sign-in-settings"], queryFn: () => call(API.captcha.settings), staleTime: Infinity });
  const [mode, setMode] = useState<"slide" | "captcha">("slide");
  const [proof, setProof] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [randomStr, setRandomStr] = useState(randomKey);
  const [missingProof, setMissingProof] = useState(false);
  // The verification shows once the server said it asks for it.
  const needsProof = settings.data?.captcha ?? false;

  const signIn = useMutation({
    mutationFn: async ({ username, password, code, verify }: Credentials & { verify: boolean }) => {
      const proofFields = !verify ? {} : mode === "slide" ? { slideProof: proof ?? "" } : { randomStr, code: code ?? "" };
      const token = await call(API.auth.login, { query: { grant_type: "admin" }, body: { username, password, ...proofFields } });
      sessionStore.signIn(token);
      sessionStore.setUserInfo(await call(API.auth.userInfo));
      return token;
    },
    onSuccess: (token) => void navigate(token.sfFirst ? PRODUCT.infoPath : PRODUCT.homePath, { replace: true }),
    // A proof works once, right or wrong: the next try needs a new one.
    onError: () => {
      setProof(null);
      setAttempt((n) => n + 1);
      setRandomStr(randomKey());
    },
  });

  if (session?.userInfo && !signIn.isPending)
    return <Navigate to={session.sfFirst ? PRODUCT.infoPath : PRODUCT.homePath} replace />;
  const error = signIn.error instanceof ApiError ? signIn.error.message : signIn.error ? t("errors:internal") : null;
  const submit = async (values: Credentials) => {
    // A click before the settings arrived waits for them rather than guessing.
    const verify = (settings.data ?? (await settings.refetch()).data)?.captcha ?? true;
    if (verify && mode === "slide" && !proof) return setMissingProof(true);
    setMissingProof(false);
    signIn.mutate({ ...values, verify });
  };

  return (
    <main style={{ minHeight: "100vh", display: "grid", placeItems: "center", padding: 16, background: "#f0f2f5" }}>
      <section style={CARD}>
        <div style={{ display: "flex", justifyContent: "space-between", alignItems: "center", marginBottom: 16, gap: 8 }}>
          <h1 style={{ margin: 0, fontSize: 24, fontWeight: 600 }}>{t("common:appName")}</h1>
          <LanguageNativeSelect />
        </div>
        <p style={SECONDARY}>{t("login.welcome")}</p>
        <Form<Credentials> layout="vertical" onFinish={submit} requiredMark={false}>
          <Form.Item name="username" rules={[{ required: true, message: t("login.username") }]}>
            <Input autoComplete="username" placeholder={t("login.username")} data-testid="login-username" />
          </Form.Item>
          <Form.Item name="password" rules={[{ required: true, message: t("login.password") }]}>
            <Input.Password autoComplete="current-password" placeholder={t("login.password")} data-testid="login-password" />
          </Form.Item>
          {needsProof && mode === "slide" && (
            <Form.Item
              validateStatus={missingProof ? "error" : undefined}
              help={missingProof ? t("slide.required") : undefined}
              extra={
                <Button
                  type="link"
                  size="small"
                  style={{ padding: 0 }}
                  onClick={() => setMode("captcha")}
                  data-testid="use-captcha"
                >
                  {t("captcha.usePicture")}
                </Button>
              }
            >
              <SlideVerify
                key={attempt}
                onVerified={(value) => {
                  setProof(value);
                  setMissingProof(false);
                }}
              />
            </Form.Item>
          )}
          {needsProof && mode === "captcha" && (
            <Form.Item
              name="code"
              rules={[{ required: true, message: t("captcha.placeholder") }]}
              extra={
                <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setMode("slide")} data-testid="use-slide">
                  {t("captcha.useSlide")}
                </Button>
              }
            >
              <CaptchaField randomStr={randomStr} onRefresh={() => setRandomStr(randomKey())} />
            </Form.Item>
          )}
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
