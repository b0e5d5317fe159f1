import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { menuLabel } from "../menu/menu-tree.ts";
import { useMenuContext } from "../menu/use-menus.ts";
import type { Tab } from "../state/tabs.ts";

/** A tab's label in the current language: an i18n key, or the menu item's label. */
export function useTabLabel(): (tab: Tab) => string {
  const { t, i18n } = useTranslation("shell");
  const { routes } = useMenuContext();
  return useCallback(
    (tab: Tab) => {
      if ("key" in tab.label) return t(tab.label.key);
      const node = routes.get(tab.value);
      return node ? menuLabel(node, i18n.language) : tab.label.text;
    },
    [t, i18n.language, routes],
  );
}
