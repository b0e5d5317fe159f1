import { PRODUCT } from "@ess/domain/product.ts";
import { persistedStore, useStore } from "./persisted-store.ts";

/**
 * A tab (spec §3): the route it shows (`value`, with its query) and where its label comes from —
 * an i18n key for the console's own pages, or the menu item for pages from the server menu, so
 * the label follows the language.
 */
export interface Tab {
  value: string;
  query: string;
  label: { key: string } | { menuId?: number; text: string };
  /** What the page shows, when pages of one kind show different things (a device's name or SN). */
  subject?: string;
}

/** Spec §2: the home tab is not closable unless configured otherwise. */
export const HOME_TAB_CLOSABLE = false;

export const HOME_TAB: Tab = { value: PRODUCT.homePath, query: "", label: { key: "shell:tabs.home" } };

export const isClosable = (tabs: readonly Tab[], tab: Tab) =>
  tabs.length > 1 && (HOME_TAB_CLOSABLE || tab.value !== HOME_TAB.value);

/** Adds a tab unless one with the same path is open (then its query is refreshed); empty paths are skipped. */
export function addTab(tabs: readonly Tab[], tab: Tab): Tab[] {
  if (!tab.value) return [...tabs];
  const at = tabs.findIndex((t) => t.value === tab.value);
  if (at === -1) return [...tabs, tab];
  return tabs.map((t, i) => (i === at ? { ...t, query: tab.query, label: tab.label } : t));
}

/** Names what a tab's page shows (see Tab.subject); other tabs are left as they are. */
export function setTabSubject(tabs: readonly Tab[], value: string, subject: string): Tab[] {
  return tabs.map((t) => (t.value === value && t.subject !== subject ? { ...t, subject } : t));
}

/**
 * Closes one tab. The only remaining tab, and home unless configured, cannot close. Closing the
 * active tab opens the one before it, or the first.
 */
export function closeTab(tabs: readonly Tab[], value: string, active: string): { tabs: Tab[]; open: Tab | null } {
  const at = tabs.findIndex((t) => t.value === value);
  const tab = tabs[at];
  if (!tab || !isClosable(tabs, tab)) return { tabs: [...tabs], open: null };
  const rest = tabs.filter((_, i) => i !== at);
  if (value !== active) return { tabs: rest, open: null };
  return { tabs: rest, open: rest[at - 1] ?? rest[0] ?? null };
}

/** Keeps the given tab (and home, which does not close). */
export function closeOthers(tabs: readonly Tab[], keep: string): Tab[] {
  return tabs.filter((t) => t.value === keep || !isClosable(tabs, t));
}

/** Close all returns to the home tab. */
export function closeAll(tabs: readonly Tab[]): { tabs: Tab[]; open: Tab } {
  const home = tabs.find((t) => t.value === HOME_TAB.value) ?? HOME_TAB;
  return { tabs: [home], open: home };
}

export const tabsStore = persistedStore<Tab[]>(
  () => sessionStorage,
  "ess.tabs",
  [HOME_TAB],
  (raw) => (Array.isArray(raw) && raw.length > 0 ? (raw as Tab[]) : [HOME_TAB]),
);

export const useTabs = () => useStore(tabsStore);

export const tabHref = (tab: Tab) => `${tab.value}${tab.query}`;
