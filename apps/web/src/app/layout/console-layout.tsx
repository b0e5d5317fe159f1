import { PRODUCT } from "@ess/domain/product.ts";
import { App, Layout } from "antd";
import { Suspense, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useMatches, useNavigate } from "react-router";
import { ErrorBoundary } from "../../ui/error-boundary.tsx";
import { PageLoading } from "../../ui/page-loading.tsx";
import { menuLabel } from "../menu/menu-tree.ts";
import { MenuContext, useMenus } from "../menu/use-menus.ts";
import { useSessionServices } from "../services/use-session-services.ts";
import { lockStore, lockWith } from "../state/lock.ts";
import { setPreference, usePreferences } from "../state/preferences.ts";
import { addTab, type Tab, tabsStore, useTabs } from "../state/tabs.ts";
import { ErrorLogDialog } from "./error-log-dialog.tsx";
import { KeepAliveOutlet } from "./keep-alive-outlet.tsx";
import { LockDialog } from "./lock-dialog.tsx";
import { SettingsDrawer } from "./settings-drawer.tsx";
import { Sidebar } from "./sidebar.tsx";
import { TabBar } from "./tab-bar.tsx";
import { TopBar } from "./top-bar.tsx";
import { useScreen } from "./use-screen.ts";
import { useTabLabel } from "./use-tab-label.ts";
import "./shell.css";

/** What a static route declares about itself (react-router `handle`). */
export interface RouteHandle {
  title?: string;
  noTab?: boolean;
  keepAlive?: boolean;
}

/** Spec §9: notices sit 60 px from the top, below the top bar. */
export const NOTICE_TOP = 60;

/** antd's App (modal, notification) belongs to the signed-in console, not the sign-in page. */
export function ConsoleLayout() {
  return (
    <App notification={{ top: NOTICE_TOP }}>
      <ConsoleFrame />
    </App>
  );
}

/** The signed-in console: side menu, top bar, tabs, the page, footer (spec §2 Layout). */
function ConsoleFrame() {
  const { t } = useTranslation("shell");
  const prefs = usePreferences();
  const screen = useScreen();
  const compact = screen === 0;
  const [overlayOpen, setOverlayOpen] = useState(false);
  const [dialog, setDialog] = useState<"lock" | "errorLog" | "settings" | null>(null);
  const menus = useMenus();
  const tabs = useTabs();
  const location = useLocation();
  const matches = useMatches();
  const navigate = useNavigate();
  const labelOf = useTabLabel();
  const { logout } = useSessionServices();
  const { i18n } = useTranslation();

  const handle = (matches.at(-1)?.handle ?? {}) as RouteHandle;
  const menuNode = menus.routes.get(location.pathname);

  // Every visited route becomes a tab unless it is marked no-tab (spec §2 navigation guard).
  useEffect(() => {
    if (handle.noTab) return;
    let label: Tab["label"] | null = null;
    if (handle.title) label = { key: handle.title };
    else if (menuNode) label = { menuId: menuNode.id, text: menuLabel(menuNode, i18n.language) };
    else if (location.pathname.startsWith("/myiframe/")) {
      const name = new URLSearchParams(location.search).get("name");
      label = name ? { text: name } : { key: "shell:routes.iframe" };
    }
    if (!label) return;
    tabsStore.set(addTab(tabsStore.get(), { value: location.pathname, query: location.search, label }));
  }, [location.pathname, location.search, handle.noTab, handle.title, menuNode, i18n.language]);

  // The page title is the current tab's label.
  const current = tabs.find((tab) => tab.value === location.pathname);
  const title = current ? labelOf(current) : null;
  useEffect(() => {
    document.title = title ?? t("common:appName");
  }, [title, t]);

  const openPaths = useMemo(() => new Set(tabs.map((tab) => tab.value)), [tabs]);
  const keepAlive = (path: string) =>
    Boolean(menus.routes.get(path)?.keepAlive) || (path === location.pathname && handle.keepAlive === true);
  const siderWidth = screen >= 2 ? 220 : 200;
  const collapsed = compact ? false : prefs.collapsed;

  const lock = async (password: string) => {
    await lockWith(password);
    lockStore.set({ ...lockStore.get(), from: `${location.pathname}${location.search}` });
    setDialog(null);
    void navigate("/lock", { replace: true });
  };

  return (
    <MenuContext.Provider value={menus}>
      <Layout
        className="ess-shell"
        data-theme={prefs.themeName}
        data-screen={screen}
        style={{ ["--ess-primary" as string]: prefs.themeColor }}
      >
        {compact && overlayOpen && (
          <button
            type="button"
            className="ess-overlay-mask"
            aria-label={t("topbar.collapse")}
            onClick={() => setOverlayOpen(false)}
            data-testid="overlay-mask"
          />
        )}
        {(!compact || overlayOpen) && (
          <div className={compact ? "ess-sider-overlay" : "ess-sider-dock"}>
            <Sidebar collapsed={collapsed} width={siderWidth} onNavigate={() => setOverlayOpen(false)} />
          </div>
        )}
        <Layout style={{ background: "transparent", minWidth: 0 }}>
          <div className="ess-top" data-testid="top-area">
            <TopBar
              collapsed={compact ? !overlayOpen : prefs.collapsed}
              compact={compact}
              onToggle={() => (compact ? setOverlayOpen(!overlayOpen) : setPreference("collapsed", !prefs.collapsed))}
              onLock={() => setDialog("lock")}
              onErrorLog={() => setDialog("errorLog")}
              onSettings={() => setDialog("settings")}
              onLogout={logout}
            />
            {prefs.show.tag && <TabBar />}
          </div>
          <Layout.Content className="ess-main" data-testid="main">
            <ErrorBoundary resetKey={location.pathname}>
              <Suspense fallback={<PageLoading />}>
                <KeepAliveOutlet keepAlive={keepAlive} open={openPaths} />
              </Suspense>
            </ErrorBoundary>
          </Layout.Content>
          <Layout.Footer className="ess-footer" data-testid="footer">
            {t("common:footer", { version: PRODUCT.version, copyright: PRODUCT.copyright, build: __APP_BUILD__ })}
          </Layout.Footer>
        </Layout>
      </Layout>
      <LockDialog open={dialog === "lock"} onClose={() => setDialog(null)} onLock={lock} />
      <ErrorLogDialog open={dialog === "errorLog"} onClose={() => setDialog(null)} />
      <SettingsDrawer open={dialog === "settings"} onClose={() => setDialog(null)} />
    </MenuContext.Provider>
  );
}
