import { USER_TYPES } from "@ess/domain";
import type { Queryable } from "../../db/db.ts";
import { run, type Sql, sql } from "../../db/sql.ts";
import type { AuthContext } from "../auth/auth.context.ts";

/**
 * The one data-scope function (DESIGN §3). What a caller may see follows from its account:
 * - back office (user type 0): the whole tenant;
 * - channel staff (user type 1): the subtree of their organisation (organisations, their staff,
 *   the end users they serve, those users' devices); a dealer also sees the installer companies
 *   of its distributor that are marked "show under dealers" (to read, not to change);
 * - end users (user type 2): a master user itself, its sub-users and its devices; a sub-user
 *   itself and its master's devices;
 * - anything else (a channel account without an organisation): nothing.
 *
 * Repositories apply it in SQL: each method gives a condition over a table alias to put in the
 * WHERE clause of a list, a count, an export or a read by id. Nothing is filtered after loading.
 */
export type ScopeKind = "tenant" | "org" | "own" | "none";

export interface DataScope {
  readonly kind: ScopeKind;
  readonly tenantId: number;
  readonly userId: number;
  /** Ids of the organisations the caller may read (or, with `write`, change). */
  orgIds(write?: boolean): Sql;
  organisations(alias: string, write?: boolean): Sql;
  users(alias: string): Sql;
  devices(alias: string): Sql;
  /** Operation log lines: those of operators the caller may see (the tenant's own, for back office). */
  logs(alias: string): Sql;
  /** Account deletion requests of users the caller may see. */
  cancellations(alias: string): Sql;
  /**
   * OTA campaigns: back office the tenant's; channel staff those launched in their organisation's
   * subtree (their devices are in it); end users none.
   */
  campaigns(alias: string): Sql;
  /**
   * Bulk setting operations: those launched by accounts the caller may see (the tenant's, for back
   * office); their devices still pass `devices` one by one.
   */
  bulkOperations(alias: string): Sql;
  /**
   * Referral cash-backs (`referral_cashback`): those whose referrer or referee is an account the
   * caller sees (the tenant's, for back office).
   */
  referrals(alias: string): Sql;
  /** Messages: those sent by accounts the caller may see (the tenant's, for back office). */
  messages(alias: string): Sql;
  /** Feedback: that of accounts the caller may see (the tenant's, for back office). */
  feedback(alias: string): Sql;
}

/** What the data scope follows from: a signed-in caller, or an account read back (a message's sender). */
export type ScopeSubject = Pick<AuthContext, "userType" | "org" | "tenantId" | "userId" | "parentUserId">;

const col = (alias: string, column: string) => sql.raw(`${/^[a-z_][a-z0-9_]*$/.test(alias) ? alias : "invalid alias"}.${column}`);

/**
 * Devices sold (org_id) or installed (installer_org_id) by the organisations `ids` selects. Written
 * as one id list from the two indexed columns rather than `org_id IN … OR installer_org_id IN …`,
 * which PostgreSQL can only answer by reading every device; the organisations go in as an array
 * (`= ANY (ARRAY(…))`) so that each half is an index scan rather than a join over every device.
 */
export function devicesOfOrganisations(alias: string, ids: Sql): Sql {
  return sql`${col(alias, "id")} IN (SELECT id FROM device WHERE org_id = ANY (ARRAY(${ids}))
                                    UNION ALL SELECT id FROM device WHERE installer_org_id = ANY (ARRAY(${ids})))`;
}

export function scopeKindOf(caller: Pick<AuthContext, "userType" | "org">): ScopeKind {
  if (caller.userType === USER_TYPES.backOffice) return "tenant";
  if (caller.userType === USER_TYPES.user) return "own";
  return caller.org && caller.org.kind !== "manufacturer" ? "org" : "none";
}

export function dataScope(caller: ScopeSubject): DataScope {
  const kind = scopeKindOf(caller);
  const tenantId = caller.tenantId;
  const userId = caller.userId;
  const masterId = caller.parentUserId ?? caller.userId;
  const isMaster = caller.parentUserId === null;
  const org = caller.org;
  const subtree = `${org?.path ?? "/none/"}%`;
  const inTenant = (alias: string) => sql`${col(alias, "tenant_id")} = ${tenantId}`;

  const orgIds = (write = false): Sql => {
    const own = sql`SELECT id FROM organisation WHERE tenant_id = ${tenantId} AND path LIKE ${subtree}`;
    if (kind === "tenant") return sql`SELECT id FROM organisation WHERE tenant_id = ${tenantId}`;
    if (kind !== "org") return sql`SELECT NULL::bigint WHERE FALSE`;
    if (write || org?.kind !== "dealer") return own;
    return sql`${own} UNION SELECT id FROM organisation
                WHERE tenant_id = ${tenantId} AND kind = 'installer' AND show_under_dealers AND parent_id = ${org.parentId}`;
  };

  const users = (alias: string): Sql => {
    if (kind === "tenant") return inTenant(alias);
    if (kind === "org") return sql`${inTenant(alias)} AND ${col(alias, "org_id")} IN (${orgIds(true)})`;
    if (kind === "own" && isMaster) {
      return sql`${inTenant(alias)} AND (${col(alias, "id")} = ${userId} OR ${col(alias, "parent_user_id")} = ${userId})`;
    }
    if (kind === "own") return sql`${inTenant(alias)} AND ${col(alias, "id")} = ${userId}`;
    return sql.raw("FALSE");
  };

  const visibleUserIds = sql`SELECT su.id FROM sys_user su WHERE ${users("su")}`;

  return {
    kind,
    tenantId,
    userId,
    orgIds,
    organisations: (alias, write = false) => {
      if (kind === "tenant") return inTenant(alias);
      if (kind === "org") return sql`${inTenant(alias)} AND ${col(alias, "id")} IN (${orgIds(write)})`;
      return sql.raw("FALSE");
    },
    users,
    devices: (alias) => {
      if (kind === "tenant") return inTenant(alias);
      if (kind === "org") {
        return sql`${inTenant(alias)} AND ${devicesOfOrganisations(alias, orgIds(true))}`;
      }
      if (kind === "own") return sql`${inTenant(alias)} AND ${col(alias, "owner_user_id")} = ${masterId}`;
      return sql.raw("FALSE");
    },
    logs: (alias) =>
      kind === "tenant" ? inTenant(alias) : sql`${inTenant(alias)} AND ${col(alias, "operator_id")} IN (${visibleUserIds})`,
    cancellations: (alias) =>
      kind === "tenant" ? inTenant(alias) : sql`${inTenant(alias)} AND ${col(alias, "user_id")} IN (${visibleUserIds})`,
    campaigns: (alias) => {
      if (kind === "tenant") return inTenant(alias);
      if (kind === "org") return sql`${inTenant(alias)} AND ${col(alias, "org_id")} IN (${orgIds(true)})`;
      return sql.raw("FALSE");
    },
    bulkOperations: (alias) =>
      kind === "tenant" ? inTenant(alias) : sql`${inTenant(alias)} AND ${col(alias, "created_by")} IN (${visibleUserIds})`,
    referrals: (alias) =>
      kind === "tenant"
        ? inTenant(alias)
        : sql`${inTenant(alias)} AND EXISTS (SELECT 1 FROM referral_account ra
                WHERE ra.id IN (${col(alias, "referrer_account_id")}, ${col(alias, "referee_account_id")})
                  AND ra.user_id IN (${visibleUserIds}))`,
    messages: (alias) =>
      kind === "tenant" ? inTenant(alias) : sql`${inTenant(alias)} AND ${col(alias, "created_by")} IN (${visibleUserIds})`,
    feedback: (alias) =>
      kind === "tenant" ? inTenant(alias) : sql`${inTenant(alias)} AND ${col(alias, "user_id")} IN (${visibleUserIds})`,
  };
}

/**
 * The same scope with a channel account's organisation ids read first (one small query) and given
 * to PostgreSQL as a list. With the ids as a sub-query the planner cannot know how many there are,
 * guesses a fifth of the fleet and reads every device to count a dealer's list; with the list it
 * estimates from the column statistics and reads the two organisation indexes (a bitmap OR), and
 * pages by creation time where that is cheaper. For the device list and its export.
 */
export async function withOrganisationsRead(db: Queryable, scope: DataScope): Promise<DataScope> {
  if (scope.kind !== "org") return scope;
  const ids = (await run<{ id: number }>(db, scope.orgIds(true))).rows.map((r) => r.id);
  return {
    ...scope,
    devices: (alias) =>
      sql`${col(alias, "tenant_id")} = ${scope.tenantId}
          AND (${col(alias, "org_id")} = ANY (${ids}::bigint[]) OR ${col(alias, "installer_org_id")} = ANY (${ids}::bigint[]))`,
  };
}
