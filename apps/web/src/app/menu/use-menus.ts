import type { MenuNode } from "@ess/contracts";
import { useQuery } from "@tanstack/react-query";
import { createContext, useContext, useMemo } from "react";
import { ROUTES } from "../../api/api.ts";
import { ApiError, call } from "../../api/client.ts";
import { sessionStore, useSession } from "../session.ts";
import { menuRoutes, visibleMenu } from "./menu-tree.ts";

async function fetchMenu(query: { type?: "left" | "top"; parentId?: number }): Promise<MenuNode[]> {
  try {
    return await call(ROUTES.menuRoutes.menus, { query });
  } catch (error) {
    // An ended session is handled by the client's session-end listeners; any other refusal
    // leaves the menu empty ("No menu found") rather than breaking the layout.
    if (error instanceof ApiError && error.endsSession) throw error;
    console.warn("menu not loaded", error);
    return [];
  }
}

export interface Menus {
  /** The side menu: the user's left menu, or the children of the chosen top-menu item. */
  left: MenuNode[];
  top: MenuNode[];
  /** Every console route the menus add, with the item each renders. */
  routes: Map<string, MenuNode>;
  loading: boolean;
}

const EMPTY: Menus = { left: [], top: [], routes: new Map(), loading: true };
export const MenuContext = createContext<Menus>(EMPTY);
export const useMenuContext = () => useContext(MenuContext);

/**
 * Loads the server menus of the signed-in user, filters them by `meta.roles`, keeps them in the
 * session (spec §3) and derives the routes they add.
 */
export function useMenus(topId: number | null): Menus {
  const session = useSession();
  const roles = session?.userInfo?.roles;
  const stored = session?.menu;
  const options = { enabled: Boolean(session), staleTime: Number.POSITIVE_INFINITY } as const;
  const base = useQuery({ queryKey: ["menu", "left"], queryFn: () => fetchMenu({}), ...options, initialData: stored?.left });
  const top = useQuery({
    queryKey: ["menu", "top"],
    queryFn: () => fetchMenu({ type: "top" }),
    ...options,
    initialData: stored?.top,
  });
  const section = useQuery({
    queryKey: ["menu", "left", topId],
    queryFn: () => fetchMenu({ parentId: topId ?? 0 }),
    ...options,
    enabled: options.enabled && topId !== null,
  });

  const rolesKey = (roles ?? []).join("\n");
  const result = useMemo<Menus>(() => {
    const r = rolesKey ? rolesKey.split("\n") : [];
    const baseLeft = visibleMenu(base.data ?? [], r);
    const sectionLeft = visibleMenu(section.data ?? [], r);
    const routes = new Map([...menuRoutes(baseLeft), ...menuRoutes(sectionLeft)]);
    return {
      left: topId === null ? baseLeft : sectionLeft,
      top: visibleMenu(top.data ?? [], r),
      routes,
      loading: base.isPending || top.isPending || (topId !== null && section.isPending),
    };
  }, [base.data, top.data, section.data, base.isPending, top.isPending, section.isPending, topId, rolesKey]);

  if (base.data && top.data && (stored?.left !== base.data || stored?.top !== top.data)) {
    const menu = { left: base.data, top: top.data };
    queueMicrotask(() => sessionStore.setMenu(menu));
  }
  return result;
}
