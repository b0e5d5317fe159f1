import type { MenuNode } from "@ess/contracts";
import type { MenuRow } from "./menu.repository.ts";

export function toNode(row: MenuRow): MenuNode {
  return {
    id: row.id,
    parentId: row.parent_id,
    label: row.label,
    nameEn: row.name_en,
    nameItaly: row.name_it,
    nameEs: row.name_es,
    nameJa: row.name_ja,
    path: row.path,
    component: row.component,
    icon: row.icon,
    menuType: row.menu_type,
    permission: row.permission,
    sort: row.sort,
    keepAlive: row.keep_alive,
    meta: { roles: row.roles },
    query: row.query,
    children: [],
  };
}

/** Nests rows (already in display order) under their parents, starting below `rootId`. */
export function buildTree(rows: readonly MenuRow[], rootId: number | null = null): MenuNode[] {
  const nodes = new Map(rows.map((r) => [r.id, toNode(r)]));
  const roots: MenuNode[] = [];
  for (const row of rows) {
    const node = nodes.get(row.id) as MenuNode;
    const parent = row.parent_id === null ? undefined : nodes.get(row.parent_id);
    if (row.parent_id === rootId) roots.push(node);
    else parent?.children.push(node);
  }
  return roots;
}

export interface MenuViewer {
  roles: readonly string[];
  permissions: ReadonlySet<string>;
}

/**
 * The caller's menu of one type: items whose permission the caller holds and whose roles (if any)
 * include one of the caller's; a group without a page of its own shows only with a visible child.
 */
export function menuFor(rows: readonly MenuRow[], viewer: MenuViewer, type: "left" | "top", rootId: number | null = null) {
  const visible = rows.filter(
    (r) =>
      r.menu_type === type &&
      (r.permission === null || viewer.permissions.has(r.permission)) &&
      (r.roles.length === 0 || r.roles.some((role) => viewer.roles.includes(role))),
  );
  const prune = (nodes: MenuNode[]): MenuNode[] =>
    nodes
      .map((n) => ({ ...n, children: prune(n.children) }))
      .filter((n) => n.children.length > 0 || n.component !== null || /^https?:/.test(n.path) || type === "top");
  return prune(buildTree(visible, rootId));
}

/** The ids below `id` (its children, their children…), to refuse moving an item under itself. */
export function descendantsOf(rows: readonly MenuRow[], id: number): Set<number> {
  const found = new Set<number>();
  const queue = [id];
  while (queue.length > 0) {
    const current = queue.pop() as number;
    for (const r of rows) {
      if (r.parent_id === current && !found.has(r.id)) {
        found.add(r.id);
        queue.push(r.id);
      }
    }
  }
  return found;
}
