import { Empty } from "antd";
import { useTranslation } from "react-i18next";
import { Navigate, useLocation } from "react-router";
import { PageLoading } from "../../ui/page-loading.tsx";
import { useMenuContext } from "../menu/use-menus.ts";
import { PAGES } from "../page-registry.ts";

/**
 * The routes the server menu adds (spec §2): a known path renders the page its menu item names;
 * a page this console does not have says so; any other path goes to /404.
 */
export default function MenuPage() {
  const { t } = useTranslation("shell");
  const { routes, loading } = useMenuContext();
  const { pathname } = useLocation();
  const node = routes.get(pathname);
  if (!node) return loading ? <PageLoading /> : <Navigate to="/404" replace />;
  const Page = node.component ? PAGES[node.component] : undefined;
  if (!Page) return <Empty description={t("pages.unavailable")} style={{ marginTop: 64 }} data-testid="page-unavailable" />;
  return <Page />;
}
