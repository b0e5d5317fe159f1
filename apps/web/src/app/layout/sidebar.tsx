import type { MenuNode } from "@ess/contracts";
import { Layout, Menu, type MenuProps } from "antd";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { menuIcon } from "../menu/menu-icon.tsx";
import { ancestorsOf, menuLabel, routeOf } from "../menu/menu-tree.ts";
import { useMenuContext } from "../menu/use-menus.ts";
import { usePreferences } from "../state/preferences.ts";
import { siderIsDark } from "./themes.ts";

type Item = Required<MenuProps>["items"][number];

function toItems(nodes: readonly MenuNode[], locale: string): Item[] {
  return nodes.map((n) => {
    const label = (
      <span key={n.id} className="ess-menu-label" data-testid={`menu:${n.path}`}>
        {menuLabel(n, locale)}
      </span>
    );
    const key = n.children.length > 0 ? `group:${n.id}` : routeOf(n, locale);
    return n.children.length > 0
      ? { key, label, icon: menuIcon(n.icon, true), children: toItems(n.children, locale) }
      : { key, label, icon: menuIcon(n.icon, false) };
  });
}

/** The side menu with the logo; "No menu found" when the server gives none (spec §2). */
export function Sidebar({ collapsed, width, onNavigate }: { collapsed: boolean; width: number; onNavigate: () => void }) {
  const { t, i18n } = useTranslation("shell");
  const { left, loading } = useMenuContext();
  const { themeName } = usePreferences();
  const location = useLocation();
  const navigate = useNavigate();
  const open = ancestorsOf(left, location.pathname)
    .slice(0, -1)
    .map((n) => `group:${n.id}`);

  return (
    <Layout.Sider
      className="ess-sider"
      width={width}
      collapsedWidth={64}
      collapsed={collapsed}
      trigger={null}
      data-testid="sidebar"
    >
      <div className="ess-logo">
        <span aria-hidden="true">⚡</span>
        {!collapsed && <span>{t("common:appName")}</span>}
      </div>
      <nav className="ess-sider-scroll" aria-label={t("menu.title")}>
        {left.length === 0 && !loading ? (
          <div className="ess-menu-empty" data-testid="menu-empty">
            {t("menu.empty")}
          </div>
        ) : (
          <Menu
            mode="inline"
            theme={siderIsDark(themeName) ? "dark" : "light"}
            items={toItems(left, i18n.language)}
            selectedKeys={[location.pathname, `${location.pathname}${location.search}`]}
            defaultOpenKeys={open}
            onClick={({ key }) => {
              void navigate(key);
              onNavigate();
            }}
          />
        )}
      </nav>
    </Layout.Sider>
  );
}
