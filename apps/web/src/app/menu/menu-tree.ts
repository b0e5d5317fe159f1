import type { MenuNode } from "@ess/contracts";
import type { Locale } from "@ess/domain/locales.ts";

/**
 * Menu labels come in every console language: `label` is the source (zh-CN); the spec's three
 * menu languages are label, nameEn and nameItaly, and our menus also carry Spanish and Japanese.
 */
export function menuLabel(node: Pick<MenuNode, "label" | "nameEn" | "nameItaly" | "nameEs" | "nameJa">, locale: string): string {
  const byLocale: Record<Locale, string> = {
    "zh-CN": node.label,
    "en-US": node.nameEn,
    it: node.nameItaly,
    es: node.nameEs,
    ja: node.nameJa,
  };
  return byLocale[locale as Locale] || node.label;
}

export const isExternal = (path: string) => /^https?:\/\//i.test(path);

/** A URL becomes a route inside the console: `/myiframe/urlPath` with its address and name. */
export function iframeRoute(url: string, name: string): string {
  return `/myiframe/urlPath?${new URLSearchParams({ src: url, name }).toString()}`;
}

const normalise = (path: string) => `/${path.replace(/^\/+/, "").replace(/\/+$/, "")}`;

/** Where a menu item opens: items without children get `/index` appended (spec §2). */
export function routeOf(node: MenuNode, locale: string): string {
  if (isExternal(node.path)) return iframeRoute(node.path, menuLabel(node, locale));
  const path = normalise(node.path);
  if (node.children.length > 0 || path.endsWith("/index")) return path;
  return `${path}/index`;
}

/** Hides buttons, and items whose `meta.roles` names none of the user's roles. */
export function visibleMenu(nodes: readonly MenuNode[], roles: readonly string[]): MenuNode[] {
  return nodes
    .filter((n) => n.menuType !== "button")
    .filter((n) => n.meta.roles.length === 0 || n.meta.roles.some((r) => roles.includes(r)))
    .map((n) => ({ ...n, children: visibleMenu(n.children, roles) }));
}

/** The routes the menu adds: the console path of every leaf, with the item it renders. */
export function menuRoutes(nodes: readonly MenuNode[]): Map<string, MenuNode> {
  const out = new Map<string, MenuNode>();
  const walk = (list: readonly MenuNode[]) => {
    for (const n of list) {
      if (n.children.length > 0) walk(n.children);
      else if (!isExternal(n.path)) out.set(routeOf(n, "zh-CN"), n);
    }
  };
  walk(nodes);
  return out;
}

/** The chain of items from the root to the leaf whose route is `path` (to open the sidebar on it). */
export function ancestorsOf(nodes: readonly MenuNode[], path: string): MenuNode[] {
  for (const n of nodes) {
    if (n.children.length === 0 && routeOf(n, "zh-CN") === path) return [n];
    const below = ancestorsOf(n.children, path);
    if (below.length > 0) return [n, ...below];
  }
  return [];
}
