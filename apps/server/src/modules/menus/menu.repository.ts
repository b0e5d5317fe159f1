import type { MenuInput, MenuType } from "@ess/contracts";
import type { Queryable } from "../../db/db.ts";
import { first, run, sql } from "../../db/sql.ts";

export interface MenuRow {
  id: number;
  parent_id: number | null;
  menu_type: MenuType;
  label: string;
  name_en: string;
  name_it: string;
  name_es: string;
  name_ja: string;
  path: string;
  component: string | null;
  icon: string | null;
  permission: string | null;
  sort: number;
  keep_alive: boolean;
  roles: string[];
  query: Record<string, string> | null;
}

const COLUMNS = sql.raw(
  "id, parent_id, menu_type, label, name_en, name_it, name_es, name_ja, path, component, icon, permission, sort, keep_alive, roles, query",
);

/** Every menu item of a tenant in display order (menus are few: the whole tree is one query). */
export async function listMenus(db: Queryable, tenantId: number): Promise<MenuRow[]> {
  return (await run<MenuRow>(db, sql`SELECT ${COLUMNS} FROM sys_menu WHERE tenant_id = ${tenantId} ORDER BY sort, id`)).rows;
}

export function findMenu(db: Queryable, tenantId: number, id: number) {
  return first<MenuRow>(db, sql`SELECT ${COLUMNS} FROM sys_menu WHERE tenant_id = ${tenantId} AND id = ${id}`);
}

const values = (m: MenuInput) => [
  m.parentId,
  m.menuType,
  m.label,
  m.nameEn,
  m.nameItaly,
  m.nameEs,
  m.nameJa,
  m.menuType === "button" ? "" : m.path,
  m.component,
  m.icon,
  m.permission,
  m.sort ?? 0,
  m.keepAlive,
  m.roles,
  m.query === null ? null : JSON.stringify(m.query),
];

export async function insertMenu(db: Queryable, tenantId: number, m: MenuInput, builtinKey: string | null = null) {
  const { rows } = await db.query<MenuRow>(
    `INSERT INTO sys_menu (tenant_id, builtin_key, parent_id, menu_type, label, name_en, name_it, name_es, name_ja, path,
                           component, icon, permission, sort, keep_alive, roles, query)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17::jsonb)
     RETURNING ${COLUMNS.build().text}`,
    [tenantId, builtinKey, ...values(m)],
  );
  return rows[0] as MenuRow;
}

export async function updateMenu(db: Queryable, tenantId: number, id: number, m: MenuInput) {
  const { rows } = await db.query<MenuRow>(
    `UPDATE sys_menu SET parent_id = $3, menu_type = $4, label = $5, name_en = $6, name_it = $7, name_es = $8,
            name_ja = $9, path = $10, component = $11, icon = $12, permission = $13, sort = $14, keep_alive = $15,
            roles = $16, query = $17::jsonb, updated_at = now()
      WHERE tenant_id = $1 AND id = $2
      RETURNING ${COLUMNS.build().text}`,
    [tenantId, id, ...values(m)],
  );
  return rows[0];
}

export async function countChildren(db: Queryable, tenantId: number, id: number): Promise<number> {
  const row = await first<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM sys_menu WHERE tenant_id = ${tenantId} AND parent_id = ${id}`,
  );
  return row?.n ?? 0;
}

export function deleteMenu(db: Queryable, tenantId: number, id: number) {
  return run(db, sql`DELETE FROM sys_menu WHERE tenant_id = ${tenantId} AND id = ${id}`);
}
