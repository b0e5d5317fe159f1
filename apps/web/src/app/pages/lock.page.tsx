import { LockOutlined, UnlockOutlined } from "@ant-design/icons";
import { Button, Form, Input, Space, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, Outlet, useNavigate } from "react-router";
import "../layout/shell.css";
import { endSession } from "../services/session-end.ts";
import { useSession } from "../session.ts";
import { unlockWith, useLock } from "../state/lock.ts";

function useClock() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** /lock: the lock screen (spec §2). Its children: /lock/pages1 the clock, /lock/pages2 the unlock form. */
export default function LockPage() {
  const lock = useLock();
  const session = useSession();
  if (!lock.locked && session) return <Navigate to="/" replace />;
  if (!session) return <Navigate to="/login" replace />;
  return (
    <main className="ess-lock-screen" data-testid="lock-screen">
      <Outlet />
    </main>
  );
}

export function LockClock() {
  const { t, i18n } = useTranslation("shell");
  const now = useClock();
  const navigate = useNavigate();
  return (
    <div>
      <div className="ess-lock-clock">{now.toLocaleTimeString(i18n.language, { hour: "2-digit", minute: "2-digit" })}</div>
      <Typography.Paragraph style={{ color: "#fff", fontSize: 18 }}>
        {now.toLocaleDateString(i18n.language, { weekday: "long", year: "numeric", month: "long", day: "numeric" })}
      </Typography.Paragraph>
      <Typography.Paragraph style={{ color: "rgba(255,255,255,0.75)" }}>
        <LockOutlined /> {t("lock.locked")}
      </Typography.Paragraph>
      <Button
        size="large"
        ghost
        icon={<UnlockOutlined />}
        onClick={() => void navigate("/lock/pages2")}
        data-testid="lock-open-unlock"
      >
        {t("lock.clickToUnlock")}
      </Button>
    </div>
  );
}

export function LockUnlock() {
  const { t } = useTranslation("shell");
  const navigate = useNavigate();
  const session = useSession();
  const [form] = Form.useForm<{ password: string }>();
  const user = session?.userInfo?.user;
  const unlock = async ({ password }: { password: string }) => {
    const back = await unlockWith(password);
    if (back === null) form.setFields([{ name: "password", errors: [t("lock.wrong")] }]);
    else void navigate(back, { replace: true });
  };
  return (
    <div style={{ width: "100%", maxWidth: 340 }}>
      <Typography.Title level={3} style={{ color: "#fff" }}>
        {user?.name || user?.username}
      </Typography.Title>
      <Form form={form} onFinish={unlock}>
        <Form.Item name="password" rules={[{ required: true, whitespace: true, message: t("lock.required") }]}>
          <Input.Password size="large" autoFocus placeholder={t("lock.password")} data-testid="unlock-password" />
        </Form.Item>
        <Button type="primary" size="large" htmlType="submit" block data-testid="unlock-submit">
          {t("lock.unlock")}
        </Button>
      </Form>
      <Space style={{ marginTop: 16 }}>
        <Button type="link" style={{ color: "#fff" }} onClick={() => void navigate("/lock/pages1")}>
          {t("lock.back")}
        </Button>
        <Button
          type="link"
          style={{ color: "#fff" }}
          onClick={() => {
            endSession();
            void navigate("/login", { replace: true });
          }}
          data-testid="lock-sign-in-again"
        >
          {t("lock.signInAgain")}
        </Button>
      </Space>
    </div>
  );
}
