import type { endUserCreate, endUserEdit } from "@ess/contracts";
import { END_USER_ROLE, USER_STATUS } from "@ess/domain";
import type { z } from "zod";
import type { Db } from "../../db/db.ts";
import { run, sql } from "../../db/sql.ts";
import { business, forbidden, notFound } from "../../http/errors.ts";
import type { AuthContext } from "../auth/auth.context.ts";
import { hashPassword } from "../auth/password.ts";
import type { DataScope } from "../scope/data-scope.ts";
import { anonymiseAccounts, insertAccount, setRoles } from "../users/account.repository.ts";
import { findEndUser } from "./enduser.repository.ts";
import { findOrg } from "./org.repository.ts";

type CreateInput = z.output<typeof endUserCreate>;
type EditInput = z.output<typeof endUserEdit>;

/**
 * End-user accounts. Channel staff manage the users their organisations serve; a master user
 * manages its own sub-users (a sub-user always belongs to its master's organisation).
 */
export function createEndUserService(db: Db, onAccountChange: (userId: number) => void) {
  async function visible(scope: DataScope, id: number) {
    const user = await findEndUser(db, scope, id);
    if (!user) throw notFound();
    return user;
  }

  return {
    async create(caller: AuthContext, scope: DataScope, input: CreateInput) {
      let parentUserId = input.parentUserId;
      if (scope.kind === "own") {
        if (caller.parentUserId !== null) throw forbidden();
        parentUserId ??= caller.userId;
      }
      if (input.orgId !== null && !(await findOrg(db, scope, input.orgId, true))) throw notFound();
      let orgId = input.orgId ?? (scope.kind === "org" ? (caller.org?.id ?? null) : null);
      if (parentUserId !== null) {
        const master = await findEndUser(db, scope, parentUserId);
        if (!master) throw notFound();
        if (master.parent_user_id !== null) throw business("channel:subUserOfSubUser");
        orgId = master.org_id;
      }
      const passwordHash = await hashPassword(input.password);
      const id = await db.transaction(async (tx) => {
        const userId = await insertAccount(tx, {
          tenantId: caller.tenantId,
          username: input.username,
          passwordHash,
          name: input.name,
          userType: 2,
          orgId,
          parentUserId,
          phone: input.phone,
          email: input.email,
          contacts: input.contacts,
          address: input.address,
          timeZone: input.timeZone,
          mustChangePassword: true,
        });
        await setRoles(tx, caller.tenantId, userId, {
          codes: [parentUserId === null ? END_USER_ROLE.master : END_USER_ROLE.sub],
        });
        return userId;
      });
      return visible(scope, id);
    },

    async edit(scope: DataScope, input: EditInput) {
      await visible(scope, input.id);
      await run(
        db,
        sql`UPDATE sys_user SET name = ${input.name}, contacts = ${input.contacts}, phone = ${input.phone}, email = ${input.email},
                   address = ${input.address}, time_zone = ${input.timeZone}, updated_at = now()
             WHERE id = ${input.id}`,
      );
      return visible(scope, input.id);
    },

    async lock(caller: AuthContext, scope: DataScope, id: number, status: number) {
      await visible(scope, id);
      if (id === caller.userId) throw business("channel:lockSelf");
      await db.transaction(async (tx) => {
        await run(
          tx,
          sql`UPDATE sys_user SET status = ${status}, failed_logins = 0, locked_until = NULL, updated_at = now() WHERE id = ${id}`,
        );
        if (status === USER_STATUS.locked)
          await run(tx, sql`UPDATE auth_session SET revoked_at = now() WHERE user_id = ${id} AND revoked_at IS NULL`);
      });
      onAccountChange(id);
    },

    /** Deletes an end user for good (anonymised), with its sub-users; its devices become unbound. */
    async remove(caller: AuthContext, scope: DataScope, id: number) {
      await visible(scope, id);
      if (id === caller.userId) throw business("channel:deleteSelf");
      const ids = await db.transaction(async (tx) => {
        const { rows } = await run<{ id: number }>(
          tx,
          sql`SELECT id FROM sys_user WHERE (id = ${id} OR parent_user_id = ${id}) AND deleted_at IS NULL`,
        );
        const all = rows.map((r) => r.id);
        await anonymiseAccounts(tx, all);
        return all;
      });
      for (const userId of ids) onAccountChange(userId);
    },
  };
}
