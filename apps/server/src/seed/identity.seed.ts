import { DEFAULT_MENUS, DEFAULT_ROLES, type Locale } from "@ess/domain";
import type { Db, Queryable } from "../db/db.ts";
import type { Translate } from "../i18n/translator.ts";
import { insertMenu } from "../modules/menus/menu.repository.ts";
import { seedFaults } from "./faults.seed.ts";
import { seedRegions } from "./regions.seed.ts";

/** Marks an item applied; true when it was not applied before (so the caller applies it now). */
async function applyOnce(tx: Queryable, tenantId: number, item: string): Promise<boolean> {
  const { rowCount } = await tx.query(
    "INSERT INTO seed_applied (tenant_id, item) VALUES ($1, $2) ON CONFLICT (tenant_id, item) DO NOTHING",
    [tenantId, item],
  );
  return rowCount > 0;
}

async function seedRoles(tx: Queryable, tenantId: number) {
  for (const role of DEFAULT_ROLES) {
    if (await applyOnce(tx, tenantId, `role:${role.code}`)) {
      await tx.query(
        `INSERT INTO sys_role (tenant_id, code, name, user_type, builtin) VALUES ($1, $2, $3, $4, true)
         ON CONFLICT (tenant_id, code) DO UPDATE SET user_type = EXCLUDED.user_type, builtin = true`,
        [tenantId, role.code, role.name, role.userType],
      );
    }
    for (const permission of role.permissions) {
      if (!(await applyOnce(tx, tenantId, `role-permission:${role.code}:${permission}`))) continue;
      await tx.query(
        `INSERT INTO sys_role_permission (role_id, permission)
         SELECT id, $3 FROM sys_role WHERE tenant_id = $1 AND code = $2 ON CONFLICT DO NOTHING`,
        [tenantId, role.code, permission],
      );
    }
  }
}

async function seedMenus(tx: Queryable, tenantId: number, translator: (locale: Locale) => Translate) {
  const t = {
    zh: translator("zh-CN"),
    en: translator("en-US"),
    it: translator("it"),
    es: translator("es"),
    ja: translator("ja"),
  };
  const { rows } = await tx.query<{ id: number; builtin_key: string }>(
    "SELECT id, builtin_key FROM sys_menu WHERE tenant_id = $1 AND builtin_key IS NOT NULL",
    [tenantId],
  );
  const idByKey = new Map(rows.map((r) => [r.builtin_key, r.id]));
  for (const menu of DEFAULT_MENUS) {
    const parentId = menu.parent === null ? null : idByKey.get(menu.parent);
    // A child whose parent an administrator deleted stays out, like its parent.
    if (parentId === undefined) continue;
    if (!(await applyOnce(tx, tenantId, `menu:${menu.key}`))) continue;
    const key = `menus:items.${menu.key}`;
    const row = await insertMenu(
      tx,
      tenantId,
      {
        parentId,
        menuType: menu.type,
        label: t.zh(key),
        nameEn: t.en(key),
        nameItaly: t.it(key),
        nameEs: t.es(key),
        nameJa: t.ja(key),
        path: menu.path,
        component: menu.component,
        icon: menu.icon,
        permission: menu.permission,
        sort: menu.sort,
        keepAlive: menu.keepAlive,
        roles: [...menu.roles],
        query: null,
      },
      menu.key,
    );
    idByKey.set(menu.key, row.id);
  }
}

/** The tenant's manufacturer organisation (root of its channel tree); back office staff join it. */
async function seedRootOrganisation(tx: Queryable, tenantId: number) {
  await tx.query(
    `INSERT INTO organisation (tenant_id, kind, path, name)
     SELECT id, 'manufacturer', '', name FROM tenant
      WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM organisation WHERE tenant_id = $1 AND kind = 'manufacturer')`,
    [tenantId],
  );
  await tx.query("UPDATE organisation SET path = '/' || id || '/' WHERE tenant_id = $1 AND kind = 'manufacturer' AND path = ''", [
    tenantId,
  ]);
  await tx.query(
    `UPDATE sys_user SET org_id = (SELECT id FROM organisation WHERE tenant_id = $1 AND kind = 'manufacturer')
      WHERE tenant_id = $1 AND user_type = 0 AND org_id IS NULL`,
    [tenantId],
  );
}

/**
 * The default roles (with their permission sets) and the default menu tree of the domain
 * package, applied to a tenant at every start; each item only once, so that what an
 * administrator changed stays changed while items that a newer version adds appear.
 */
export async function seedIdentity(db: Db, tenantId: number, translator: (locale: Locale) => Translate) {
  await db.transaction(async (tx) => {
    await seedRootOrganisation(tx, tenantId);
    await seedRoles(tx, tenantId);
    await seedMenus(tx, tenantId, translator);
    await seedFaults(tx, tenantId);
    await seedRegions(tx, tenantId);
  });
}
