import type { Organisation } from "@ess/contracts";
import { ORG_LEVEL, type OrgKind } from "@ess/domain";
import type { Queryable } from "../../db/db.ts";
import { first, run, type Sql, sql } from "../../db/sql.ts";
import type { DataScope } from "../scope/data-scope.ts";

export interface OrgRow {
  id: number;
  kind: OrgKind;
  parent_id: number | null;
  parent_name: string | null;
  path: string;
  name: string;
  authorisation_code: string | null;
  contact: string;
  email: string | null;
  phone: string | null;
  show_under_dealers: boolean;
  remarks: string;
  account: string | null;
  account_user_id: number | null;
  created_at: Date;
  updated_at: Date;
}

export const ORG_SELECT = sql.raw(
  `o.id, o.kind, o.parent_id, p.name AS parent_name, o.path, o.name, o.authorisation_code, o.contact, o.email, o.phone,
   o.show_under_dealers, o.remarks, a.username AS account, o.account_user_id, o.created_at, o.updated_at`,
);
export const ORG_FROM = sql.raw(
  `organisation o
   LEFT JOIN organisation p ON p.id = o.parent_id
   LEFT JOIN sys_user a ON a.id = o.account_user_id AND a.deleted_at IS NULL`,
);

export const toOrganisation = (r: OrgRow): Organisation => ({
  id: r.id,
  kind: r.kind,
  level: ORG_LEVEL[r.kind],
  parentId: r.parent_id,
  parentName: r.parent_name,
  name: r.name,
  authorisationCode: r.authorisation_code,
  contact: r.contact,
  email: r.email,
  phone: r.phone,
  showUnderDealers: r.show_under_dealers,
  remarks: r.remarks,
  account: r.account,
  createTime: r.created_at.toISOString(),
  updateTime: r.updated_at.toISOString(),
});

/** Live channel organisations (not the manufacturer itself) inside the scope. */
export const orgWhere = (scope: DataScope, write = false, extra: Sql = sql.raw("TRUE")) =>
  sql`o.deleted_at IS NULL AND o.kind <> 'manufacturer' AND ${scope.organisations("o", write)} AND ${extra}`;

/** An organisation by id through the scope; `write` narrows to what the caller may change. */
export function findOrg(db: Queryable, scope: DataScope, id: number, write = false) {
  return first<OrgRow>(db, sql`SELECT ${ORG_SELECT} FROM ${ORG_FROM} WHERE ${orgWhere(scope, write, sql`o.id = ${id}`)}`);
}

/** A possible parent: the manufacturer (back office only) or a channel organisation the caller may change. */
export function findParent(db: Queryable, scope: DataScope, id: number) {
  return first<{ id: number; kind: OrgKind; path: string }>(
    db,
    sql`SELECT o.id, o.kind, o.path FROM organisation o
         WHERE o.id = ${id} AND o.deleted_at IS NULL AND ${scope.organisations("o", true)}`,
  );
}

export function rootOrg(db: Queryable, tenantId: number) {
  return first<{ id: number; kind: OrgKind; path: string }>(
    db,
    sql`SELECT id, kind, path FROM organisation WHERE tenant_id = ${tenantId} AND kind = 'manufacturer'`,
  );
}

export async function codeTaken(db: Queryable, tenantId: number, code: string, exceptId = 0) {
  const rows = await run(
    db,
    sql`SELECT 1 FROM organisation WHERE tenant_id = ${tenantId} AND lower(authorisation_code) = lower(${code})
         AND deleted_at IS NULL AND id <> ${exceptId}`,
  );
  return rows.rows.length > 0;
}

/** What still hangs from an organisation: sub-organisations, accounts other than its own, devices. */
export async function dependants(db: Queryable, org: { id: number; account_user_id: number | null }) {
  const row = await first<{ n: number }>(
    db,
    sql`SELECT (SELECT count(*) FROM organisation WHERE parent_id = ${org.id} AND deleted_at IS NULL)
             + (SELECT count(*) FROM sys_user WHERE org_id = ${org.id} AND deleted_at IS NULL
                 AND id IS DISTINCT FROM ${org.account_user_id})
             + (SELECT count(*) FROM device WHERE (org_id = ${org.id} OR installer_org_id = ${org.id}) AND deleted_at IS NULL)
             AS n`,
  );
  return Number(row?.n ?? 0);
}
