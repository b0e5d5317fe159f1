import { DownOutlined } from "@ant-design/icons";
import { Button, Dropdown, type MenuProps, Tabs } from "antd";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { closeAll, closeOthers, closeTab, isClosable, type Tab, tabHref, tabsStore, useTabs } from "../state/tabs.ts";
import { useTabLabel } from "./use-tab-label.ts";

/**
 * Open pages as tabs (spec §2 Tabs): closable, with a right-click menu and a More dropdown to
 * close the others or all. The rules themselves are in state/tabs.ts.
 */
export function TabBar() {
  const { t } = useTranslation("shell");
  const tabs = useTabs();
  const location = useLocation();
  const navigate = useNavigate();
  const labelOf = useTabLabel();
  const active = location.pathname;

  const open = (tab: Tab | null) => {
    if (tab) void navigate(tabHref(tab));
  };
  const close = (value: string) => {
    const next = closeTab(tabs, value, active);
    tabsStore.set(next.tabs);
    open(next.open);
  };
  const others = (keep: string) => {
    tabsStore.set(closeOthers(tabs, keep));
    if (keep !== active) open(tabs.find((x) => x.value === keep) ?? null);
  };
  const all = () => {
    const next = closeAll(tabs);
    tabsStore.set(next.tabs);
    open(next.open);
  };
  const menuFor = (tab: Tab): MenuProps => ({
    items: [
      { key: "close", label: t("tabs.close"), disabled: !isClosable(tabs, tab) },
      { key: "others", label: <span data-testid="tab-menu-close-others">{t("tabs.closeOthers")}</span> },
      { key: "all", label: <span data-testid="tab-menu-close-all">{t("tabs.closeAll")}</span> },
    ],
    onClick: ({ key, domEvent }) => {
      domEvent.stopPropagation();
      if (key === "close") close(tab.value);
      if (key === "others") others(tab.value);
      if (key === "all") all();
    },
  });

  return (
    <div className="ess-tabs" data-testid="tab-bar">
      <Tabs
        type="editable-card"
        hideAdd
        size="small"
        activeKey={active}
        onChange={(key) => open(tabs.find((x) => x.value === key) ?? null)}
        onEdit={(key, action) => {
          if (action === "remove" && typeof key === "string") close(key);
        }}
        items={tabs.map((tab) => ({
          key: tab.value,
          closable: isClosable(tabs, tab),
          label: (
            <Dropdown trigger={["contextMenu"]} menu={menuFor(tab)}>
              <span data-testid="tab" data-path={tab.value}>
                {labelOf(tab)}
              </span>
            </Dropdown>
          ),
        }))}
        tabBarExtraContent={{
          right: (
            <Dropdown
              trigger={["click"]}
              menu={{
                items: [
                  { key: "others", label: <span data-testid="tabs-close-others">{t("tabs.closeOthers")}</span> },
                  { key: "all", label: <span data-testid="tabs-close-all">{t("tabs.closeAll")}</span> },
                ],
                onClick: ({ key }) => (key === "others" ? others(active) : all()),
              }}
            >
              <Button size="small" type="text" data-testid="tabs-more">
                {t("tabs.more")} <DownOutlined style={{ fontSize: 10 }} />
              </Button>
            </Dropdown>
          ),
        }}
      />
    </div>
  );
}
