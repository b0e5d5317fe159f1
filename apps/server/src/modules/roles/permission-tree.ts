import type { PermissionNode } from "@ess/contracts";
import { PERMISSION_IDS } from "@ess/domain";
import type { Translate } from "../../i18n/translator.ts";

/**
 * The permission registry as a tree by resource (`sys` › `sys.user` › `sys.user.view`), labelled in
 * the caller's language: what the role screen's checkbox tree shows. Group labels come from the
 * `permissions` namespace's `groups`, leaves from the permission's own label.
 */
export function permissionTree(t: Translate): PermissionNode[] {
  const roots: PermissionNode[] = [];
  for (const id of PERMISSION_IDS) {
    const parts = id.split(".");
    let level = roots;
    parts.forEach((_, i) => {
      const key = parts.slice(0, i + 1).join(".");
      let node = level.find((n) => n.key === key);
      if (!node) {
        const label =
          i === parts.length - 1
            ? t(`permissions:${key}`)
            : t(`permissions:groups.${key.replaceAll(".", "_")}`, { defaultValue: key });
        node = { key, label, children: [] };
        level.push(node);
      }
      level = node.children;
    });
  }
  // A group with a single child adds a click and nothing else: lift the child.
  const lift = (nodes: PermissionNode[]): PermissionNode[] =>
    nodes.map((n) =>
      n.children.length === 1 && (n.children[0] as PermissionNode).children.length > 0
        ? (lift(n.children)[0] as PermissionNode)
        : { ...n, children: lift(n.children) },
    );
  return lift(roots);
}
