import { PRODUCT } from "@ess/domain/product.ts";
import { useMutation, useQuery } from "@tanstack/react-query";
import Alert from "antd/es/alert";
import Button from "antd/es/button";
import { type FormEvent, type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useNavigate } from "react-router";
import { API } from "../../../api/api.ts";
import { ApiError, call } from "../../../api/client.ts";
import { sessionStore, useSession } from "../../../app/session.ts";
import { LanguagePicker } from "../../../ui/language-picker.tsx";
import { CaptchaField } from "../components/captcha-field.tsx";
import { PlainInput, PlainInputStyle, PlainPassword } from "../components/plain-input.tsx";
import { randomKey } from "../components/random-key.ts";
import { SlideVerify } from "../components/slide-verify.tsx";

interface Credentials {
  username: string;
  password: string;
  code: string;
}
type Missing = Partial<Record<keyof Credentials | "proof", boolean>>;

// Plain markup instead of antd's Form, Input, Card, Typography, Space and Tooltip keeps the sign-in
// page within its budget of gzipped JavaScript (the browser test measures it).
const CARD = {
  width: "100%",
  maxWidth: 400,
  padding: 24,
  background: "#fff",
  borderRadius: 8,
  boxShadow: "0 1px 2px rgba(0,0,0,0.06), 0 1px 6px rgba(0,0,0,0.04)",
} as const;
const SECONDARY = { color: "rgba(0,0,0,0.55)", marginTop: 0 } as const;
const LINK = { padding: 0, height: "auto" } as const;

/** One input of the form with, under it, what it misses and an extra line (a link). */
function Field({ error, extra, children }: { error?: string | false | undefined; extra?: ReactNode; children: ReactNode }) {
  return (
    <div style={{ marginBottom: 20 }}>
      {children}
      {error && (
        <div role="alert" style={{ color: "#ff4d4f", fontSize: 14, lineHeight: 1.5715, marginTop: 2 }}>
          {error}
        </div>
      )}
      {extra && <div style={{ marginTop: 2 }}>{extra}</div>}
    </div>
  );
}

/**
 * Sign-in (spec §2 Login page): welcome, account and password, the slide verification (or, for
 * those who cannot drag, the captcha picture), the server's translated refusals, and the forced
 * password change at first sign-in. A field left empty says so under it until it is filled.
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
  const [values, setValues] = useState<Credentials>({ username: "", password: "", code: "" });
  const [missing, setMissing] = useState<Missing>({});
  // The verification shows once the server said it asks for it.
  const needsProof = settings.data?.captcha ?? false;

  const signIn = useMutation({
    mutationFn: async ({ username, password, code, verify }: Credentials & { verify: boolean }) => {
      const proofFields = !verify ? {} : mode === "slide" ? { slideProof: proof ?? "" } : { randomStr, code };
      const token = await call(API.auth.login, { query: { grant_type: "admin" }, body: { username, password, ...proofFields } });
      sessionStore.signIn(token);
      sessionStore.setUserInfo(await call(API.auth.userInfo));
      return token;
    },
    onSuccess: (token) => void navigate(token.sfFirst ? PRODUCT.infoPath : PRODUCT.homePath, { replace: true }),
    // A proof works once, right or wrong: the next try needs a new one, and a new picture's
    // characters are typed afresh.
    onError: () => {
      setProof(null);
      setAttempt((n) => n + 1);
      setRandomStr(randomKey());
      setValues((v) => ({ ...v, code: "" }));
    },
  });

  if (session?.userInfo && !signIn.isPending)
    return <Navigate to={session.sfFirst ? PRODUCT.infoPath : PRODUCT.homePath} replace />;
  const error = signIn.error instanceof ApiError ? signIn.error.message : signIn.error ? t("errors:internal") : null;
  const set = (name: keyof Credentials) => (value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    if (value.trim()) setMissing((m) => ({ ...m, [name]: false }));
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // A click before the settings arrived waits for them rather than guessing.
    const verify = (settings.data ?? (await settings.refetch()).data)?.captcha ?? true;
    const now: Missing = {
      username: !values.username.trim(),
      password: !values.password,
      code: verify && mode === "captcha" && !values.code.trim(),
      proof: verify && mode === "slide" && !proof,
    };
    setMissing(now);
    if (Object.values(now).some(Boolean)) return;
    signIn.mutate({ ...values, verify });
  };

  return (
    <main style={{ minHeight: "100vh", display: "grid", placeItems: "center", padding: 16, background: "#f0f2f5" }}>
      <PlainInputStyle />
      <section style={CARD}>
        <div style={{ display: "flex", justifyContent: "space-between", alignItems: "center", marginBottom: 16, gap: 8 }}>
          <h1 style={{ margin: 0, fontSize: 24, fontWeight: 600 }}>{t("common:appName")}</h1>
          <LanguagePicker />
        </div>
        <p style={SECONDARY}>{t("login.welcome")}</p>
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Field error={missing.username && t("login.username")}>
            <PlainInput
              value={values.username}
              onChange={set("username")}
              invalid={Boolean(missing.username)}
              autoComplete="username"
              placeholder={t("login.username")}
              aria-label={t("login.username")}
              data-testid="login-username"
            />
          </Field>
          <Field error={missing.password && t("login.password")}>
            <PlainPassword
              value={values.password}
              onChange={set("password")}
              invalid={Boolean(missing.password)}
              showLabel={t("login.showPassword")}
              autoComplete="current-password"
              placeholder={t("login.password")}
              aria-label={t("login.password")}
              data-testid="login-password"
            />
          </Field>
          {needsProof && mode === "slide" && (
            <Field
              error={missing.proof && t("slide.required")}
              extra={
                <Button type="link" size="small" style={LINK} onClick={() => setMode("captcha")} data-testid="use-captcha">
                  {t("captcha.usePicture")}
                </Button>
              }
            >
              <SlideVerify
                key={attempt}
                onVerified={(value) => {
                  setProof(value);
                  setMissing((m) => ({ ...m, proof: false }));
                }}
              />
            </Field>
          )}
          {needsProof && mode === "captcha" && (
            <Field
              error={missing.code && t("captcha.placeholder")}
              extra={
                <Button type="link" size="small" style={LINK} onClick={() => setMode("slide")} data-testid="use-slide">
                  {t("captcha.useSlide")}
                </Button>
              }
            >
              <CaptchaField
                randomStr={randomStr}
                onRefresh={() => setRandomStr(randomKey())}
                value={values.code}
                onChange={set("code")}
                invalid={Boolean(missing.code)}
              />
            </Field>
          )}
          {error && <Alert type="error" title={error} showIcon style={{ marginBottom: 16 }} data-testid="login-error" />}
          <Button type="primary" htmlType="submit" block loading={signIn.isPending} data-testid="login-submit">
            {t("login.submit")}
          </Button>
        </form>
        <p style={{ ...SECONDARY, marginTop: 16, marginBottom: 0, fontSize: 12 }}>{t("login.forgot")}</p>
      </section>
    </main>
  );
}
