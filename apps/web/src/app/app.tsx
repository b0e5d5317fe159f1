import type { Locale } from "@ess/domain/locales.ts";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { ConfigProvider } from "antd";
import type { Locale as AntdLocale } from "antd/es/locale";
import { Suspense, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { RouterProvider } from "react-router";
import { onSessionEnd } from "../api/client.ts";
import { loadAntdLocale } from "../i18n/antd-locale.ts";
import { notify } from "../ui/notify.ts";
import { PageLoading } from "../ui/page-loading.tsx";
import { antdThemeOf } from "./layout/themes.ts";
import { createRouter } from "./routes.tsx";
import { endSession, setSessionQueryClient } from "./services/session-end.ts";
import { onNewVersion, versionCheck } from "./services/version-runtime.ts";
import { usePreferences } from "./state/preferences.ts";

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 10_000 } },
});
setSessionQueryClient(queryClient);

type Router = ReturnType<typeof createRouter>;

/**
 * App-wide reactions: forced sign-out and the new-version notice. Their messages load antd's
 * message code on demand, so the sign-in page carries neither it nor antd's App.
 */
function ShellWatchers({ router }: { router: Router }) {
  const { t } = useTranslation("shell");

  // 401, or body code 5, ends the session with the translated message (spec §8).
  useEffect(
    () =>
      onSessionEnd((error) => {
        void notify("error", error.bodyCode === 5 ? t("errors:sessionExpired") : error.message);
        endSession();
        void router.navigate("/login", { replace: true });
      }),
    [router, t],
  );

  useEffect(() => {
    onNewVersion(() => void notify("warning", t("version.updated")));
    versionCheck.start();
    return () => versionCheck.stop();
  }, [t]);
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
      <QueryClientProvider client={queryClient}>
        <ShellWatchers router={router} />
        <Suspense fallback={<PageLoading />}>
          <RouterProvider router={router} />
        </Suspense>
      </QueryClientProvider>
    </ConfigProvider>
  );
}
