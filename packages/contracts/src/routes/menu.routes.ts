import { PERMISSION_IDS, type PermissionId } from "@ess/domain";
import { z } from "zod";
import { idBody, idQuery } from "../list.ts";
import { defineRoute } from "../route.ts";
import { text } from "../text.ts";
import { evenWithOtherIssues } from "../validation.ts";

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
  /** In a lazy tree: whether the item has children not sent yet. */
  hasChildren?: boolean;
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
  hasChildren: z.boolean().optional(),
});

const label = text().trim().max(64);
/** A console route (`/admin/user`) or an external address shown in a frame. */
const menuPath = text()
  .trim()
  .max(255)
  .regex(/^(\/[A-Za-z0-9._~/-]*|https?:\/\/\S+)$/);

/** What an administrator edits of a menu item. Left and top items need a path; buttons a permission. */
export const menuInput = z
  .object({
    parentId: z.number().int().min(1).nullable().default(null),
    menuType: z.enum(MENU_TYPES),
    label: label.min(1),
    nameEn: label.default(""),
    nameItaly: label.default(""),
    nameEs: label.default(""),
    nameJa: label.default(""),
    path: menuPath.or(z.literal("")).default(""),
    component: text()
      .trim()
      .max(255)
      .regex(/^[A-Za-z0-9/_.-]+$/)
      .nullable()
      .default(null),
    icon: text().trim().max(64).nullable().default(null),
    permission: z
      .enum(PERMISSION_IDS as [PermissionId, ...PermissionId[]])
      .nullable()
      .default(null),
    // Required of left items (spec §5 "menu order"); other kinds default to 0.
    sort: z.number().int().min(0).max(9999).optional(),
    keepAlive: z.boolean().default(false),
    roles: z.array(text().trim().min(1).max(64)).max(50).default([]),
    query: z.record(text().max(64), text().max(255)).nullable().default(null),
  })
  .superRefine((menu, ctx) => {
    if (menu.menuType !== "button" && !menu.path)
      ctx.addIssue({ code: "custom", path: ["path"], message: "validation:required" });
    // Spec §5: a left item names its page (component path) and its order. A top-level item may
    // instead be a folder of others (the default tree's are), and an external address opens in a frame.
    if (menu.menuType === "left" && menu.parentId !== null && !menu.component && !/^https?:/.test(menu.path)) {
      ctx.addIssue({ code: "custom", path: ["component"], message: "validation:required" });
    }
    if (menu.menuType === "left" && menu.sort === undefined) {
      ctx.addIssue({ code: "custom", path: ["sort"], message: "validation:required" });
    }
    if (menu.menuType === "button" && !menu.permission) {
      ctx.addIssue({ code: "custom", path: ["permission"], message: "validation:required" });
    }
  }, evenWithOtherIssues);
export type MenuInput = z.infer<typeof menuInput>;

const queryFlag = z.preprocess(
  (v) => (v === "true" || v === "1" ? true : v === "false" || v === "0" || v === "" ? false : v),
  z.boolean(),
);

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
    scope: { entity: "self" },
  }),
  /** Every menu item (buttons included) for the menu screen; `lazy` sends one level below `parentId`. */
  tree: defineRoute({
    method: "GET",
    path: "/sys/menu/tree",
    summary: "The whole menu tree for administration (lazy: one level)",
    tags: ["menus"],
    access: { permission: "sys.menu.view" },
    query: z.object({ lazy: queryFlag.optional(), parentId: z.coerce.number().int().min(1).optional() }),
    data: z.array(menuNode),
    scope: { entity: "tenant" },
  }),
  info: defineRoute({
    method: "GET",
    path: "/sys/menu/info",
    summary: "One menu item",
    tags: ["menus"],
    access: { permission: "sys.menu.view" },
    query: idQuery,
    data: menuNode,
    scope: { entity: "tenant" },
  }),
  save: defineRoute({
    method: "POST",
    path: "/sys/menu/save",
    summary: "Add a menu item",
    tags: ["menus"],
    access: { permission: "sys.menu.edit" },
    body: menuInput,
    data: menuNode,
    scope: { entity: "tenant" },
  }),
  edit: defineRoute({
    method: "POST",
    path: "/sys/menu/edit",
    summary: "Change a menu item",
    tags: ["menus"],
    access: { permission: "sys.menu.edit" },
    body: z.intersection(idBody, menuInput),
    data: menuNode,
    scope: { entity: "tenant" },
  }),
  del: defineRoute({
    method: "POST",
    path: "/sys/menu/del",
    summary: "Delete a menu item without children",
    tags: ["menus"],
    access: { permission: "sys.menu.edit" },
    body: idBody,
    data: z.null(),
    scope: { entity: "tenant" },
  }),
} as const;
