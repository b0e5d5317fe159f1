import type { EndUser } from "@ess/contracts";
import type { Queryable } from "../../db/db.ts";
import { first, type Sql, sql } from "../../db/sql.ts";
import type { DataScope } from "../scope/data-scope.ts";

export interface EndUserRow {
  id: number;
  username: string;
  name: string;
  contacts: string;
  phone: string | null;
  email: string | null;
  address: string;
  time_zone: string | null;
  status: number;
  org_id: number | null;
  org_name: string | null;
  parent_user_id: number | null;
  parent_username: string | null;
  sub_users: number;
  created_at: Date;
}

export const END_USER_SELECT = sql.raw(
  `u.id, u.username, u.name, u.contacts, u.phone, u.email, u.address, u.time_zone, u.status, u.org_id, o.name AS org_name,
   u.parent_user_id, m.username AS parent_username,
   (SELECT count(*)::int FROM sys_user s WHERE s.parent_user_id = u.id AND s.deleted_at IS NULL) AS sub_users, u.created_at`,
);
export const END_USER_FROM = sql.raw(
  "sys_user u LEFT JOIN organisation o ON o.id = u.org_id LEFT JOIN sys_user m ON m.id = u.parent_user_id",
);

export const endUserWhere = (scope: DataScope, extra: Sql = sql.raw("TRUE")) =>
  sql`u.deleted_at IS NULL AND u.user_type = 2 AND ${scope.users("u")} AND ${extra}`;

export const toEndUser = (r: EndUserRow): EndUser => ({
  id: r.id,
  username: r.username,
  name: r.name,
  contacts: r.contacts,
  phone: r.phone,
  email: r.email,
  address: r.address,
  timeZone: r.time_zone,
  status: r.status,
  orgId: r.org_id,
  orgName: r.org_name,
  parentUserId: r.parent_user_id,
  parentUsername: r.parent_username,
  subUsers: r.sub_users,
  createTime: r.created_at.toISOString(),
});

export function findEndUser(db: Queryable, scope: DataScope, id: number) {
  return first<EndUserRow>(
    db,
    sql`SELECT ${END_USER_SELECT} FROM ${END_USER_FROM} WHERE ${endUserWhere(scope, sql`u.id = ${id}`)}`,
  );
}
