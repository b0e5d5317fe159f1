import { MENU_TYPES, type MenuNode, menuInput } from "@ess/contracts";
import { PERMISSION_IDS } from "@ess/domain";
import i18next from "i18next";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { menuLabel } from "../../../app/menu/menu-tree.ts";
import { defineCrud, type FieldDef, type OptionSource } from "../../../ui/crud/index.ts";

const typeOptions = { values: MENU_TYPES, labelKey: "menus:screen.types" };

const flatten = (nodes: MenuNode[], depth = 0): { value: number; label: string }[] =>
  nodes
    .filter((n) => n.menuType !== "button")
    .flatMap((n) => [
      { value: n.id, label: `${"· ".repeat(depth)}${menuLabel(n, i18next.language)}` },
      ...flatten(n.children, depth + 1),
    ]);

/** Every menu item but buttons as a possible parent, indented by depth, in the user's language. */
const parentOptions: OptionSource = { key: "menu-parents", load: async () => flatten(await call(API.menu.tree, { query: {} })) };

const fields: FieldDef[] = [
  { name: "parentId", kind: "select", options: parentOptions },
  { name: "menuType", kind: "select", options: typeOptions, required: true },
  { name: "label", label: "menus:screen.labelZh", required: true },
  { name: "nameEn" },
  { name: "nameItaly" },
  { name: "nameEs" },
  { name: "nameJa" },
  { name: "path", required: true, visible: (v) => v.menuType !== "button", help: "menus:screen.pathHelp" },
  { name: "component", visible: (v) => v.menuType !== "button", help: "menus:screen.componentHelp" },
  { name: "icon", visible: (v) => v.menuType !== "button" },
  { name: "permission", kind: "select", options: { values: PERMISSION_IDS, labelKey: "permissions:" } },
  { name: "sort", kind: "number" },
  { name: "keepAlive", kind: "switch", visible: (v) => v.menuType !== "button" },
];

/** The server-driven menu tree (spec §3 Menu item): left and top menus and buttons, labels in five languages. */
export const menusCrud = defineCrud<MenuNode>({
  id: "menus",
  ns: ["menus", "permissions"],
  list: API.menu.tree,
  tree: true,
  columns: [
    { key: "label", render: (m) => menuLabel(m, i18next.language) },
    { key: "menuType", options: typeOptions },
    { key: "path" },
    { key: "component" },
    { key: "permission" },
    { key: "sort" },
    { key: "keepAlive", kind: "boolean" },
  ],
  create: {
    title: "menus:screen.create",
    route: API.menu.save,
    schema: menuInput,
    permission: "sys.menu.edit",
    initial: () => ({ menuType: "left", sort: 0, keepAlive: false }),
    fields,
  },
  edit: {
    title: "menus:screen.edit",
    route: API.menu.edit,
    // The row id is added to the body; the rest follows the same rules as a new item.
    schema: menuInput,
    permission: "sys.menu.edit",
    // Role restrictions and route parameters are not edited here: send them back unchanged.
    toBody: (values, menu) => ({ ...values, id: menu?.id, roles: menu?.meta.roles ?? [], query: menu?.query ?? null }),
    fields,
  },
  remove: {
    route: API.menu.del,
    permission: "sys.menu.edit",
    confirm: "menus:screen.confirmDelete",
    // Rows arrive with empty child lists removed (no expander), so absent means none.
    visible: (m) => !m.children?.length,
  },
});
