import type { UserRecord } from "@ess/contracts";
import type { Queryable } from "../../db/db.ts";
import { first, type Sql, sql } from "../../db/sql.ts";
import type { DataScope } from "../scope/data-scope.ts";

export interface UserRow {
  id: number;
  username: string;
  name: string;
  phone: string | null;
  email: string | null;
  user_type: number;
  status: number;
  locked_until: Date | null;
  time_zone: string | null;
  org_id: number | null;
  org_name: string | null;
  roles: { id: number; code: string; name: string }[];
  last_login_at: Date | null;
  created_at: Date;
}

export const USER_SELECT = sql.raw(
  `u.id, u.username, u.name, u.phone, u.email, u.user_type, u.status, u.locked_until, u.time_zone, u.org_id,
   o.name AS org_name, u.last_login_at, u.created_at,
   coalesce((SELECT json_agg(json_build_object('id', r.id, 'code', r.code, 'name', r.name) ORDER BY r.id)
               FROM sys_user_role ur JOIN sys_role r ON r.id = ur.role_id WHERE ur.user_id = u.id), '[]') AS roles`,
);
export const USER_FROM = sql.raw("sys_user u LEFT JOIN organisation o ON o.id = u.org_id");

export const userWhere = (scope: DataScope, extra: Sql = sql.raw("TRUE")) =>
  sql`u.deleted_at IS NULL AND ${scope.users("u")} AND ${extra}`;

export const toUserRecord = (r: UserRow): UserRecord => ({
  id: r.id,
  username: r.username,
  name: r.name,
  phone: r.phone,
  email: r.email,
  userType: r.user_type,
  status: r.status,
  lockedUntil: r.locked_until?.toISOString() ?? null,
  timeZone: r.time_zone,
  orgId: r.org_id,
  orgName: r.org_name,
  roles: r.roles,
  lastLoginTime: r.last_login_at?.toISOString() ?? null,
  createTime: r.created_at.toISOString(),
});

export function findUser(db: Queryable, scope: DataScope, id: number) {
  return first<UserRow>(db, sql`SELECT ${USER_SELECT} FROM ${USER_FROM} WHERE ${userWhere(scope, sql`u.id = ${id}`)}`);
}

/** The permissions the roles of an account grant, and whether one of them is the administrator's. */
export async function grantsOf(db: Queryable, userId: number | null, roleIds: readonly number[] = []) {
  const row = await first<{ permissions: string[]; admin: boolean }>(
    db,
    sql`SELECT coalesce(array_agg(DISTINCT rp.permission) FILTER (WHERE rp.permission IS NOT NULL), '{}') AS permissions,
               coalesce(bool_or(r.code = 'ADMIN'), false) AS admin
          FROM sys_role r LEFT JOIN sys_role_permission rp ON rp.role_id = r.id
         WHERE r.id IN (SELECT role_id FROM sys_user_role WHERE user_id = ${userId}) OR r.id = ANY(${roleIds}::bigint[])`,
  );
  return row ?? { permissions: [], admin: false };
}
