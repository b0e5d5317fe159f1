import { API, type MenuInput } from "@ess/contracts";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/db.ts";
import { business, notFound, ValidationError } from "../../http/errors.ts";
import { bindRoute } from "../../http/route.ts";
import { countChildren, deleteMenu, findMenu, insertMenu, listMenus, updateMenu } from "./menu.repository.ts";
import { buildTree, descendantsOf, menuFor, toNode } from "./menu.tree.ts";

/** A parent must exist in the tenant, must not be a button, and must not be the item or below it. */
async function checkParent(db: Db, tenantId: number, input: MenuInput, id?: number) {
  if (input.parentId === null) return;
  const rows = await listMenus(db, tenantId);
  const parent = rows.find((r) => r.id === input.parentId);
  const below = id === undefined ? new Set<number>() : descendantsOf(rows, id);
  if (!parent || parent.menu_type === "button" || input.parentId === id || below.has(input.parentId)) {
    throw new ValidationError([{ field: "parentId", key: "validation:invalid", values: {} }]);
  }
}

export function registerMenuRoutes(app: FastifyInstance, db: Db) {
  bindRoute(app, API.menu.menus, async ({ auth, input }) => {
    const rows = await listMenus(db, auth.tenantId);
    return menuFor(rows, auth, input.query.type ?? "left", input.query.parentId ?? null);
  });

  bindRoute(app, API.menu.tree, async ({ auth, input }) => {
    const rows = await listMenus(db, auth.tenantId);
    const rootId = input.query.parentId ?? null;
    if (!input.query.lazy) return buildTree(rows, rootId);
    return rows
      .filter((r) => r.parent_id === rootId)
      .map((r) => ({ ...toNode(r), hasChildren: rows.some((c) => c.parent_id === r.id) }));
  });

  bindRoute(app, API.menu.info, async ({ auth, input }) => {
    const row = await findMenu(db, auth.tenantId, input.query.id);
    if (!row) throw notFound();
    return toNode(row);
  });

  bindRoute(app, API.menu.save, async ({ auth, input }) => {
    await checkParent(db, auth.tenantId, input.body);
    return toNode(await insertMenu(db, auth.tenantId, input.body));
  });

  bindRoute(app, API.menu.edit, async ({ auth, input }) => {
    const { id, ...menu } = input.body;
    if (!(await findMenu(db, auth.tenantId, id))) throw notFound();
    await checkParent(db, auth.tenantId, menu, id);
    const row = await updateMenu(db, auth.tenantId, id, menu);
    if (!row) throw notFound();
    return toNode(row);
  });

  bindRoute(app, API.menu.del, async ({ auth, input }) => {
    const id = input.body.id;
    await db.transaction(async (tx) => {
      if (!(await findMenu(tx, auth.tenantId, id))) throw notFound();
      if ((await countChildren(tx, auth.tenantId, id)) > 0) throw business("menus:hasChildren");
      await deleteMenu(tx, auth.tenantId, id);
    });
    return null;
  });
}
