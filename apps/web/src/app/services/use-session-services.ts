import type { ReminderMessage } from "@ess/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { App } from "antd";
import i18next from "i18next";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { API } from "../../api/api.ts";
import { ApiError, call } from "../../api/client.ts";
import { reminderText } from "../../features/faults/alarm-notice.ts";
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
  const queryClient = useQueryClient();

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
    const show = (reminder: ReminderMessage) => {
      const text = reminderText(reminder, i18next.t, i18next.language);
      notification.warning({
        title: text.title || t("reminder.title"),
        description: text.content,
        placement: "topRight",
        duration: 0,
        props: {
          "data-testid": `reminder-notice${reminder.notice ? ` reminder-${reminder.notice.kind}` : reminder.system ? ` reminder-${reminder.system.kind}` : ""}`,
        } as object,
      });
      // Lists of alarms on screen show the new one without a reload.
      if (reminder.notice?.kind === "alarm" || reminder.notice?.kind === "storm")
        void queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith("crud") });
    };
    void connectReminders((reminder) => {
      if (!reminder.notice && !reminder.system) return show(reminder);
      // Alarm and system health reminders are worded in the console's language from their labels.
      void i18next.loadNamespaces(reminder.system ? "health" : "alarms").then(() => show(reminder));
    }).then((s) => {
      if (cancelled) s();
      else stop = s;
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [userId, notification, t, queryClient]);

  const logout = async () => {
    // The server revokes the tokens; the console signs out locally even if that call fails.
    await call(API.auth.logout).catch(() => {});
    endSession();
    void navigate("/login", { replace: true });
  };
  return { logout };
}
