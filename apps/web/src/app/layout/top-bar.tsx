import { DownOutlined, MenuFoldOutlined, MenuUnfoldOutlined, UserOutlined } from "@ant-design/icons";
import { PRODUCT } from "@ess/domain/product.ts";
import { App, Button, Dropdown, Menu } from "antd";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { confirmAction } from "../../ui/confirm.tsx";
import { LanguageSelect } from "../../ui/language-select.tsx";
import { menuLabel, routeOf } from "../menu/menu-tree.ts";
import { useMenuContext } from "../menu/use-menus.ts";
import { useSession } from "../session.ts";
import { usePreferences } from "../state/preferences.ts";
import { SettingsArea } from "./settings-area.tsx";

interface TopBarProps {
  collapsed: boolean;
  compact: boolean;
  onToggle: () => void;
  onLock: () => void;
  onErrorLog: () => void;
  onSettings: () => void;
  onLogout: () => void;
}

/** Collapse toggle, top menu, settings area, language and the user dropdown (spec §2 Layout). */
export function TopBar(props: TopBarProps) {
  const { t, i18n } = useTranslation("shell");
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const session = useSession();
  const { top } = useMenuContext();
  const { show } = usePreferences();
  const user = session?.userInfo?.user;
  const { pathname } = useLocation();
  const toggleLabel = t(props.collapsed ? "topbar.expand" : "topbar.collapse");

  return (
    <header className="ess-header" data-testid="top-bar">
      {show.collapse && (
        <Button
          type="text"
          icon={props.collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          onClick={props.onToggle}
          aria-label={toggleLabel}
          title={toggleLabel}
          data-testid="collapse-toggle"
        />
      )}
      {show.menu && top.length > 0 && !props.compact ? (
        <Menu
          className="ess-top-menu"
          mode="horizontal"
          data-testid="top-menu"
          selectedKeys={[pathname]}
          items={top.map((n) => ({
            key: routeOf(n, i18n.language),
            label: <span data-testid={`top-menu:${n.path}`}>{menuLabel(n, i18n.language)}</span>,
          }))}
          onClick={({ key }) => void navigate(key)}
        />
      ) : (
        <div className="ess-header-spacer" />
      )}
      {!props.compact && <SettingsArea onLock={props.onLock} onErrorLog={props.onErrorLog} onSettings={props.onSettings} />}
      <LanguageSelect compact={props.compact} />
      <Dropdown
        trigger={["click"]}
        menu={{
          items: [
            ...(props.compact
              ? [
                  { key: "lock", label: t("topbar.lock") },
                  { key: "errorLog", label: t("topbar.errorLog") },
                  { key: "settings", label: t("topbar.settings") },
                  { type: "divider" as const },
                ]
              : []),
            { key: "info", label: <span data-testid="user-info-link">{t("user.info")}</span> },
            { key: "logout", label: <span data-testid="logout-link">{t("user.logout")}</span> },
          ],
          onClick: ({ key }) => {
            if (key === "info") void navigate(PRODUCT.infoPath);
            if (key === "lock") props.onLock();
            if (key === "errorLog") props.onErrorLog();
            if (key === "settings") props.onSettings();
            if (key === "logout")
              confirmAction(modal, t, {
                title: t("user.logoutConfirm"),
                onOk: props.onLogout,
              });
          },
        }}
      >
        <Button type="text" className="ess-user" data-testid="user-menu">
          <UserOutlined />
          {!props.compact && <span data-testid="user-name">{user?.name || user?.username}</span>}
          <DownOutlined style={{ fontSize: 10 }} />
        </Button>
      </Dropdown>
    </header>
  );
}
