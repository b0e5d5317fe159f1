import type { Locale } from "@ess/domain/locales.ts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { App as AntdApp, ConfigProvider } from "antd";
import type { Locale as AntdLocale } from "antd/es/locale";
import { Suspense, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { RouterProvider } from "react-router";
import { onSessionEnd } from "../api/client.ts";
import { loadAntdLocale } from "../i18n/antd-locale.ts";
import { PageLoading } from "../ui/page-loading.tsx";
import { antdThemeOf } from "./layout/themes.ts";
import { createRouter } from "./routes.tsx";
import { endSession, setSessionQueryClient } from "./services/session-end.ts";
import { onNewVersion, versionCheck } from "./services/version-runtime.ts";
import { usePreferences } from "./state/preferences.ts";

/** Spec §9: notices sit 60 px from the top, below the top bar. */
export const NOTICE_TOP = 60;

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 10_000 } },
});
setSessionQueryClient(queryClient);

type Router = ReturnType<typeof createRouter>;

/** App-wide reactions that need antd's message API: forced sign-out and the new-version notice. */
function ShellWatchers({ router }: { router: Router }) {
  const { message } = AntdApp.useApp();
  const { t } = useTranslation("shell");

  // 401, or body code 5, ends the session with the translated message (spec §8).
  useEffect(
    () =>
      onSessionEnd((error) => {
        message.error(error.bodyCode === 5 ? t("errors:sessionExpired") : error.message);
        endSession();
        void router.navigate("/login", { replace: true });
      }),
    [router, message, t],
  );

  useEffect(() => {
    onNewVersion(() => void message.warning({ content: t("version.updated"), duration: 3, className: "ess-version-notice" }));
    versionCheck.start();
    return () => versionCheck.stop();
  }, [message, t]);
  return null;
}

export function App({ initialAntdLocale }: { initialAntdLocale: AntdLocale }) {
  const { i18n } = useTranslation();
  const [antdLocale, setAntdLocale] = useState(initialAntdLocale);
  const router = useMemo(createRouter, []);
  const prefs = usePreferences();
  const theme = useMemo(() => antdThemeOf(prefs.themeName, prefs.themeColor), [prefs.themeName, prefs.themeColor]);

  useEffect(() => {
    const onChange = (lng: string) => void loadAntdLocale(lng as Locale).then(setAntdLocale);
    i18n.on("languageChanged", onChange);
    return () => i18n.off("languageChanged", onChange);
  }, [i18n]);

  return (
    <ConfigProvider locale={antdLocale} theme={theme}>
      <AntdApp notification={{ top: NOTICE_TOP }}>
        <QueryClientProvider client={queryClient}>
          <ShellWatchers router={router} />
          <Suspense fallback={<PageLoading />}>
            <RouterProvider router={router} />
          </Suspense>
        </QueryClientProvider>
      </AntdApp>
    </ConfigProvider>
  );
}
