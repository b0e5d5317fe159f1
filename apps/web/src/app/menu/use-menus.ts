import type { MenuNode } from "@ess/contracts";
import { useQuery } from "@tanstack/react-query";
import { createContext, useContext, useMemo } from "react";
import { API } from "../../api/api.ts";
import { ApiError, call } from "../../api/client.ts";
import { sessionStore, useSession } from "../session.ts";
import { menuRoutes, visibleMenu } from "./menu-tree.ts";

async function fetchMenu(query: { type?: "left" | "top"; parentId?: number }): Promise<MenuNode[]> {
  try {
    return await call(API.menu.menus, { query });
  } catch (error) {
    // An ended session is handled by the client's session-end listeners; any other refusal
    // leaves the menu empty ("No menu found") rather than breaking the layout.
    if (error instanceof ApiError && error.endsSession) throw error;
    console.warn("menu not loaded", error);
    return [];
  }
}

export interface Menus {
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
 * Loads the server menus of the signed-in user (left, and top with `type=top`), hides items whose
 * `meta.roles` names none of the user's roles, keeps them in the session (spec §3) and derives the
 * routes they add.
 */
export function useMenus(): Menus {
  const session = useSession();
  const roles = session?.userInfo?.roles;
  // Menus belong to one account: keyed by it, so another account never sees them from the cache.
  const userId = session?.userInfo?.user.id ?? null;
  const stored = session?.menu && session.menu.userId === userId ? session.menu : undefined;
  const options = { enabled: userId !== null, staleTime: Number.POSITIVE_INFINITY } as const;
  const left = useQuery({
    queryKey: ["menu", "left", userId],
    queryFn: () => fetchMenu({}),
    ...options,
    initialData: stored?.left,
  });
  const top = useQuery({
    queryKey: ["menu", "top", userId],
    queryFn: () => fetchMenu({ type: "top" }),
    ...options,
    initialData: stored?.top,
  });

  const rolesKey = (roles ?? []).join("\n");
  const result = useMemo<Menus>(() => {
    const r = rolesKey ? rolesKey.split("\n") : [];
    const visibleLeft = visibleMenu(left.data ?? [], r);
    const visibleTop = visibleMenu(top.data ?? [], r);
    return {
      left: visibleLeft,
      top: visibleTop,
      routes: new Map([...menuRoutes(visibleTop), ...menuRoutes(visibleLeft)]),
      loading: left.isPending || top.isPending,
    };
  }, [left.data, top.data, left.isPending, top.isPending, rolesKey]);

  if (userId !== null && left.data && top.data && (stored?.left !== left.data || stored?.top !== top.data)) {
    const menu = { userId, left: left.data, top: top.data };
    queueMicrotask(() => sessionStore.setMenu(menu));
  }
  return result;
}
