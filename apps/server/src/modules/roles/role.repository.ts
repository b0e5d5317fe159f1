import type { RoleRecord } from "@ess/contracts";
import type { Queryable } from "../../db/db.ts";
import { first, sql } from "../../db/sql.ts";

export interface RoleRow {
  id: number;
  code: string;
  name: string;
  description: string;
  user_type: number;
  builtin: boolean;
  permissions: string[];
  users: number;
  created_at: Date;
}

export const ROLE_SELECT = sql.raw(
  `r.id, r.code, r.name, r.description, r.user_type, r.builtin, r.created_at,
   coalesce((SELECT array_agg(permission ORDER BY permission) FROM sys_role_permission WHERE role_id = r.id), '{}') AS permissions,
   (SELECT count(*)::int FROM sys_user_role ur JOIN sys_user u ON u.id = ur.user_id AND u.deleted_at IS NULL
     WHERE ur.role_id = r.id) AS users`,
);

export const toRoleRecord = (r: RoleRow): RoleRecord => ({
  id: r.id,
  roleCode: r.code,
  roleName: r.name,
  roleDesc: r.description,
  userType: r.user_type,
  builtin: r.builtin,
  permissions: r.permissions,
  users: r.users,
  createTime: r.created_at.toISOString(),
});

export function findRole(db: Queryable, tenantId: number, id: number) {
  return first<RoleRow>(db, sql`SELECT ${ROLE_SELECT} FROM sys_role r WHERE r.tenant_id = ${tenantId} AND r.id = ${id}`);
}

export async function setPermissions(db: Queryable, roleId: number, permissions: readonly string[]) {
  await db.query("DELETE FROM sys_role_permission WHERE role_id = $1", [roleId]);
  await db.query("INSERT INTO sys_role_permission (role_id, permission) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING", [
    roleId,
    [...new Set(permissions)],
  ]);
}
