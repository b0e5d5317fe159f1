import { Empty } from "antd";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";

/** /myiframe/{routerPath}: an external page from the menu, embedded with its `src` and `name`. */
export default function IframePage() {
  const { t } = useTranslation("shell");
  const [params] = useSearchParams();
  const src = params.get("src") ?? "";
  // Only web addresses are embedded; anything else (javascript:, data:) is refused.
  if (!/^https?:\/\//i.test(src)) return <Empty description={t("pages.noAddress")} />;
  return (
    <iframe
      title={params.get("name") ?? t("routes.iframe")}
      src={src}
      style={{ width: "100%", height: "calc(100vh - 190px)", border: 0, background: "#fff" }}
      sandbox="allow-scripts allow-same-origin allow-forms allow-popups"
      data-testid="iframe-page"
    />
  );
}
