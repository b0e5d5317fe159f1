import { App } from "antd";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { API } from "../../api/api.ts";
import { ApiError, call } from "../../api/client.ts";
import { sessionStore } from "../session.ts";
import { connectReminders } from "./reminders.ts";
import { endSession } from "./session-end.ts";
import { startTokenRefresh } from "./token-refresh.ts";

/**
 * What runs while a user is signed in: the token refresh loop, the refreshed user info (roles may
 * have changed) and the live reminders. Gives the logout action.
 */
export function useSessionServices() {
  const { notification, message } = App.useApp();
  const { t } = useTranslation("shell");
  const navigate = useNavigate();
  const userId = sessionStore.get()?.userInfo?.user.id;

  useEffect(() => {
    const stop = startTokenRefresh((error) => {
      message.error(error instanceof ApiError ? error.message : t("errors:sessionExpired"));
      endSession();
      void navigate("/login", { replace: true });
    });
    call(API.auth.userInfo).then(
      (info) => sessionStore.setUserInfo(info),
      (error: unknown) => console.warn("user info not refreshed", error),
    );
    return stop;
  }, [message, navigate, t]);

  useEffect(() => {
    if (userId === undefined) return;
    let stop: (() => void) | null = null;
    let cancelled = false;
    void connectReminders((reminder) =>
      notification.warning({
        title: reminder.title || t("reminder.title"),
        description: reminder.content,
        placement: "topRight",
        duration: 0,
        props: { "data-testid": "reminder-notice" } as object,
      }),
    ).then((s) => {
      if (cancelled) s();
      else stop = s;
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [userId, notification, t]);

  const logout = async () => {
    // The server revokes the tokens; the console signs out locally even if that call fails.
    await call(API.auth.logout).catch(() => {});
    endSession();
    void navigate("/login", { replace: true });
  };
  return { logout };
}
