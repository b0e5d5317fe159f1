import type { userCreate, userEdit } from "@ess/contracts";
import { ADMIN_ROLE_CODE, USER_STATUS, USER_TYPES } from "@ess/domain";
import type { z } from "zod";
import type { Db, Queryable } from "../../db/db.ts";
import { run, sql } from "../../db/sql.ts";
import { business, forbidden, notFound, ValidationError } from "../../http/errors.ts";
import type { AuthContext } from "../auth/auth.context.ts";
import type { AuthService } from "../auth/auth.service.ts";
import { hashPassword } from "../auth/password.ts";
import { findOrg, rootOrg } from "../channel/org.repository.ts";
import type { DataScope } from "../scope/data-scope.ts";
import { anonymiseAccounts, insertAccount, setRoles } from "./account.repository.ts";
import { findUser, grantsOf } from "./user.repository.ts";

type CreateInput = z.output<typeof userCreate>;
type EditInput = z.output<typeof userEdit>;

const fieldError = (field: string, key: string) => new ValidationError([{ field, key, values: {} }]);

/** Nobody hands out (or takes over an account with) more than they hold; the administrator may. */
function mayGrant(caller: AuthContext, grants: { permissions: string[]; admin: boolean }) {
  if (caller.roles.includes(ADMIN_ROLE_CODE)) return true;
  return !grants.admin && grants.permissions.every((p) => caller.permissions.has(p as never));
}

async function checkRoles(tx: Queryable, caller: AuthContext, roleIds: readonly number[], userType: number) {
  const ids = [...new Set(roleIds)];
  const { rows } = await run<{ id: number; user_type: number }>(
    tx,
    sql`SELECT id, user_type FROM sys_role WHERE tenant_id = ${caller.tenantId} AND id = ANY(${ids}::bigint[])`,
  );
  if (rows.length !== ids.length) throw fieldError("roleIds", "validation:invalid");
  if (rows.some((r) => r.user_type !== userType)) throw fieldError("roleIds", "validation:roleType");
  if (!mayGrant(caller, await grantsOf(tx, null, ids))) throw forbidden("users:grantMore");
}

/**
 * Accounts of every type. Each change goes through the scope (the account must be one the caller
 * sees) and through the grant rule (its roles must not exceed the caller's permissions).
 */
export function createUserService(db: Db, auth: AuthService) {
  async function manageable(tx: Queryable, caller: AuthContext, scope: DataScope, id: number) {
    const user = await findUser(tx, scope, id);
    if (!user) throw notFound();
    if (!mayGrant(caller, await grantsOf(tx, id))) throw forbidden("users:grantMore");
    return user;
  }

  async function orgFor(tx: Queryable, caller: AuthContext, scope: DataScope, input: CreateInput) {
    if (input.userType === USER_TYPES.backOffice) {
      if (scope.kind !== "tenant") throw forbidden();
      return (await rootOrg(tx, caller.tenantId))?.id ?? null;
    }
    const orgId = input.orgId ?? (scope.kind === "org" ? (caller.org?.id ?? null) : null);
    if (orgId === null) {
      if (input.userType === USER_TYPES.installer || scope.kind !== "tenant") throw fieldError("orgId", "validation:required");
      return null;
    }
    if (!(await findOrg(tx, scope, orgId, true))) throw notFound();
    return orgId;
  }

  return {
    async create(caller: AuthContext, scope: DataScope, input: CreateInput) {
      const id = await db.transaction(async (tx) => {
        const orgId = await orgFor(tx, caller, scope, input);
        await checkRoles(tx, caller, input.roleIds, input.userType);
        // Hashed only once the request is known to be allowed: argon2 is deliberately slow.
        const passwordHash = await hashPassword(input.password);
        const userId = await insertAccount(tx, {
          tenantId: caller.tenantId,
          username: input.username,
          passwordHash,
          name: input.name,
          userType: input.userType,
          orgId,
          phone: input.phone,
          email: input.email,
          timeZone: input.timeZone,
          mustChangePassword: true,
        });
        await setRoles(tx, caller.tenantId, userId, { ids: input.roleIds });
        return userId;
      });
      return (await findUser(db, scope, id)) ?? Promise.reject(notFound());
    },

    async edit(caller: AuthContext, scope: DataScope, input: EditInput) {
      await db.transaction(async (tx) => {
        const user = await manageable(tx, caller, scope, input.id);
        const current = user.roles.map((r) => r.id).sort();
        const wanted = [...new Set(input.roleIds)].sort();
        if (user.id === caller.userId && current.join() !== wanted.join()) throw business("users:ownRoles");
        await checkRoles(tx, caller, input.roleIds, user.user_type);
        await run(
          tx,
          sql`UPDATE sys_user SET name = ${input.name}, phone = ${input.phone}, email = ${input.email},
                     time_zone = ${input.timeZone}, updated_at = now() WHERE id = ${input.id}`,
        );
        await setRoles(tx, caller.tenantId, input.id, { ids: input.roleIds });
      });
      auth.forgetUser(input.id);
      return (await findUser(db, scope, input.id)) ?? Promise.reject(notFound());
    },

    async lock(caller: AuthContext, scope: DataScope, id: number, status: number) {
      if (id === caller.userId) throw business("channel:lockSelf");
      await db.transaction(async (tx) => {
        await manageable(tx, caller, scope, id);
        await run(
          tx,
          sql`UPDATE sys_user SET status = ${status}, failed_logins = 0, locked_until = NULL, updated_at = now() WHERE id = ${id}`,
        );
        if (status === USER_STATUS.locked)
          await run(tx, sql`UPDATE auth_session SET revoked_at = now() WHERE user_id = ${id} AND revoked_at IS NULL`);
      });
      auth.forgetUser(id);
    },

    async resetPassword(caller: AuthContext, scope: DataScope, id: number, password: string) {
      if (id === caller.userId) throw business("users:resetOwn");
      await manageable(db, caller, scope, id);
      await auth.resetPassword(id, password);
    },

    async remove(caller: AuthContext, scope: DataScope, id: number) {
      if (id === caller.userId) throw business("channel:deleteSelf");
      const ids = await db.transaction(async (tx) => {
        await manageable(tx, caller, scope, id);
        const { rows } = await run<{ id: number }>(
          tx,
          sql`SELECT id FROM sys_user WHERE (id = ${id} OR parent_user_id = ${id}) AND deleted_at IS NULL`,
        );
        await anonymiseAccounts(
          tx,
          rows.map((r) => r.id),
        );
        return rows.map((r) => r.id);
      });
      for (const userId of ids) auth.forgetUser(userId);
    },
  };
}
