import type { MenuNode } from "@ess/contracts";
import { describe, expect, it } from "vitest";
import { ancestorsOf, iframeRoute, menuLabel, menuRoutes, routeOf, visibleMenu } from "./menu-tree.ts";

const node = (id: number, path: string, extra: Partial<MenuNode> = {}): MenuNode => ({
  id,
  parentId: null,
  label: `标签${id}`,
  nameEn: `Label ${id}`,
  nameItaly: `Etichetta ${id}`,
  nameEs: `Etiqueta ${id}`,
  nameJa: `ラベル${id}`,
  path,
  component: null,
  icon: null,
  menuType: "left",
  permission: null,
  sort: id,
  keepAlive: false,
  meta: { roles: [] },
  query: null,
  children: [],
  ...extra,
});

describe("menu tree to routes (spec §2)", () => {
  it("labels an item in each console language, falling back to the source label", () => {
    const item = node(1, "/a");
    expect(["zh-CN", "en-US", "it", "es", "ja"].map((l) => menuLabel(item, l))).toEqual([
      "标签1",
      "Label 1",
      "Etichetta 1",
      "Etiqueta 1",
      "ラベル1",
    ]);
    expect(menuLabel({ ...item, nameJa: "" }, "ja")).toBe("标签1");
  });

  it("appends /index to items without children, and sends addresses to /myiframe", () => {
    expect(routeOf(node(1, "/admin/user"), "en-US")).toBe("/admin/user/index");
    expect(routeOf(node(1, "admin/user/"), "en-US")).toBe("/admin/user/index");
    expect(routeOf(node(1, "/wel/index"), "en-US")).toBe("/wel/index");
    expect(routeOf(node(1, "/admin", { children: [node(2, "/admin/user")] }), "en-US")).toBe("/admin");
    expect(routeOf(node(1, "https://example.org/docs?a=1"), "en-US")).toBe(
      iframeRoute("https://example.org/docs?a=1", "Label 1"),
    );
    expect(iframeRoute("https://x.org/?a=1", "Help & more")).toBe(
      "/myiframe/urlPath?src=https%3A%2F%2Fx.org%2F%3Fa%3D1&name=Help+%26+more",
    );
  });

  it("hides buttons and items whose roles name none of the user's", () => {
    const tree = [
      node(1, "/admin", {
        children: [
          node(2, "/admin/user"),
          node(3, "/admin/engineer", { meta: { roles: ["ENGINEER"] } }),
          node(4, "", { menuType: "button" }),
        ],
      }),
    ];
    expect(visibleMenu(tree, ["ADMIN"])[0]?.children.map((n) => n.id)).toEqual([2]);
    expect(visibleMenu(tree, ["ENGINEER"])[0]?.children.map((n) => n.id)).toEqual([2, 3]);
  });

  it("lists the routes of the leaves (not of groups or addresses) and finds a leaf's ancestors", () => {
    const tree = [node(1, "/admin", { children: [node(2, "/admin/user")] }), node(5, "https://x.org")];
    expect([...menuRoutes(tree).keys()]).toEqual(["/admin/user/index"]);
    expect(ancestorsOf(tree, "/admin/user/index").map((n) => n.id)).toEqual([1, 2]);
    expect(ancestorsOf(tree, "/nowhere/index")).toEqual([]);
  });
});
