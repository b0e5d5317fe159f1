import { PERMISSION_IDS } from "@ess/domain";
import { flattenLabels } from "@ess/i18n";
import { loadAllResources } from "@ess/i18n/node";
import { describe, expect, it } from "vitest";
import { permissionTree } from "./permission-tree.ts";

describe("the permission tree of the role screen", () => {
  it("has a label in the source language for every permission and every group of them", () => {
    const labels = flattenLabels(loadAllResources()["zh-CN"].permissions ?? {});
    const groups = new Set(
      PERMISSION_IDS.flatMap((id) =>
        id
          .split(".")
          .slice(0, -1)
          .map((_, i, parts) => parts.slice(0, i + 1).join("_")),
      ),
    );
    expect(PERMISSION_IDS.filter((id) => !labels.has(id))).toEqual([]);
    expect([...groups].filter((g) => !labels.has(`groups.${g}`))).toEqual([]);
  });

  it("nests permissions by resource and lifts a group that holds a single group", () => {
    const t = (key: string) => key;
    const tree = permissionTree(t);
    const sys = tree.find((n) => n.key === "sys");
    expect(sys?.label).toBe("permissions:groups.sys");
    expect(sys?.children.map((c) => c.key)).toEqual(["sys.user", "sys.role", "sys.menu", "sys.log", "sys.health"]);
    expect(sys?.children[0]?.children.map((c) => c.key)).toEqual(["sys.user.view", "sys.user.edit"]);
    const leaves = (nodes: typeof tree): string[] => nodes.flatMap((n) => (n.children.length ? leaves(n.children) : [n.key]));
    expect(leaves(tree).sort()).toEqual([...PERMISSION_IDS].sort());
  });
});
