import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { PageLoading } from "../../ui/page-loading.tsx";

/**
 * /authredirect: where a third-party sign-in returns (spec §2). Opened as a pop-up it hands its
 * query to the console that opened it and closes; opened directly it continues at /login.
 */
export default function AuthRedirectPage() {
  const { t } = useTranslation("shell");
  useEffect(() => {
    const query = location.hash.split("?")[1] ?? "";
    const target = `${location.origin}${location.pathname}#/login${query ? `?${query}` : ""}`;
    if (window.opener && window.opener !== window) {
      try {
        (window.opener as Window).location.href = target;
        window.close();
        return;
      } catch {
        // a cross-origin opener: continue here
      }
    }
    location.replace(target);
  }, []);
  return (
    <div role="status" aria-label={t("authRedirect.working")}>
      <PageLoading />
    </div>
  );
}
