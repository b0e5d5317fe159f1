import type { Locale } from "@ess/domain";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { App as AntdApp, ConfigProvider } from "antd";
import type { Locale as AntdLocale } from "antd/es/locale";
import { Suspense, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { RouterProvider } from "react-router";
import { onSessionEnd } from "../api/client.ts";
import { loadAntdLocale } from "../i18n/antd-locale.ts";
import { PageLoading } from "../ui/page-loading.tsx";
import { createRouter } from "./routes.tsx";
import { sessionStore } from "./session.ts";

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 10_000 } },
});

export function App({ initialAntdLocale }: { initialAntdLocale: AntdLocale }) {
  const { i18n } = useTranslation();
  const [antdLocale, setAntdLocale] = useState(initialAntdLocale);
  const router = useMemo(createRouter, []);

  useEffect(() => {
    const onChange = (lng: string) => void loadAntdLocale(lng as Locale).then(setAntdLocale);
    i18n.on("languageChanged", onChange);
    return () => i18n.off("languageChanged", onChange);
  }, [i18n]);

  useEffect(
    () =>
      onSessionEnd(() => {
        sessionStore.clear();
        queryClient.clear();
        void router.navigate("/login", { replace: true });
      }),
    [router],
  );

  return (
    <ConfigProvider locale={antdLocale} theme={{ token: { colorPrimary: "#409EFF" } }}>
      <AntdApp>
        <QueryClientProvider client={queryClient}>
          <Suspense fallback={<PageLoading />}>
            <RouterProvider router={router} />
          </Suspense>
        </QueryClientProvider>
      </AntdApp>
    </ConfigProvider>
  );
}
