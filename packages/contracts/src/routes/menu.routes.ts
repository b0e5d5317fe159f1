import { z } from "zod";
import { defineRoute } from "../route.ts";

/**
 * The server-driven menu (spec §3 Menu item). Labels come in every console language: `label` is
 * zh-CN (the source), `nameEn` and `nameItaly` as the spec names them, plus `nameEs` and `nameJa`.
 * An item without children gets `/index` appended to its route path by the console; `meta.roles`
 * hides it from users without one of those roles; `component` names the page to render.
 *
 * Identity implements these routes (and adds them to `API`); the console shell consumes them.
 */
export const MENU_TYPES = ["left", "top", "button"] as const;
export type MenuType = (typeof MENU_TYPES)[number];

export interface MenuNode {
  id: number;
  parentId: number | null;
  label: string;
  nameEn: string;
  nameItaly: string;
  nameEs: string;
  nameJa: string;
  path: string;
  component: string | null;
  icon: string | null;
  menuType: MenuType;
  permission: string | null;
  sort: number;
  keepAlive: boolean;
  meta: { roles: string[] };
  query: Record<string, string> | null;
  children: MenuNode[];
}

export const menuNode: z.ZodType<MenuNode> = z.object({
  id: z.number().int(),
  parentId: z.number().int().nullable(),
  label: z.string(),
  nameEn: z.string(),
  nameItaly: z.string(),
  nameEs: z.string(),
  nameJa: z.string(),
  path: z.string(),
  component: z.string().nullable(),
  icon: z.string().nullable(),
  menuType: z.enum(MENU_TYPES),
  permission: z.string().nullable(),
  sort: z.number().int(),
  keepAlive: z.boolean(),
  meta: z.object({ roles: z.array(z.string()) }),
  query: z.record(z.string(), z.string()).nullable(),
  get children() {
    return z.array(menuNode);
  },
});

export const menuRoutes = {
  /** The caller's left menu tree, or with `type=top` the top menu; filtered by role and permission. */
  menus: defineRoute({
    method: "GET",
    path: "/sys/menu/menus",
    summary: "The caller's menu tree (left, or top with type=top)",
    tags: ["menus"],
    access: { signedIn: true },
    query: z.object({ type: z.enum(["left", "top"]).optional(), parentId: z.coerce.number().int().optional() }),
    data: z.array(menuNode),
  }),
} as const;
