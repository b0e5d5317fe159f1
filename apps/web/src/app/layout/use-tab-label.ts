import { useCallback, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useResolvedPath } from "react-router";
import { menuLabel } from "../menu/menu-tree.ts";
import { useMenuContext } from "../menu/use-menus.ts";
import { setTabSubject, type Tab, tabsStore, useTabs } from "../state/tabs.ts";

/**
 * A tab's label in the current language: an i18n key, or the menu item's label; preceded by what
 * the page shows where it says (two devices' details read "Demo 3 · Device details" and
 * "Demo 7 · Device details", not the same twice).
 */
export function useTabLabel(): (tab: Tab) => string {
  const { t, i18n } = useTranslation("shell");
  const { routes } = useMenuContext();
  return useCallback(
    (tab: Tab) => {
      let label: string;
      if ("key" in tab.label) label = t(tab.label.key);
      else {
        const node = routes.get(tab.value);
        label = node ? menuLabel(node, i18n.language) : tab.label.text;
      }
      return tab.subject ? `${tab.subject} · ${label}` : label;
    },
    [t, i18n.language, routes],
  );
}

/**
 * Names what the calling page shows on its tab (and so in the page title). The page's own path
 * comes from its route, so a page kept alive behind another tab still names its own tab.
 */
export function useTabSubject(subject: string | null | undefined) {
  const { pathname } = useResolvedPath(".");
  // Waits for the tab: the layout adds it after the page's first render.
  const pending = useTabs().some((tab) => tab.value === pathname && subject && tab.subject !== subject);
  useEffect(() => {
    if (pending && subject) tabsStore.set(setTabSubject(tabsStore.get(), pathname, subject));
  }, [pending, pathname, subject]);
}
