import type { organisationCreate, organisationEdit } from "@ess/contracts";
import { ORG_ACCOUNT_ROLE, ORG_PARENT_KINDS } from "@ess/domain";
import type { z } from "zod";
import type { Db, Queryable } from "../../db/db.ts";
import { first, sql } from "../../db/sql.ts";
import { business, notFound, ValidationError } from "../../http/errors.ts";
import type { AuthContext } from "../auth/auth.context.ts";
import { hashPassword } from "../auth/password.ts";
import type { DataScope } from "../scope/data-scope.ts";
import { anonymiseAccounts, insertAccount, setRoles } from "../users/account.repository.ts";
import { codeTaken, dependants, findOrg, findParent, rootOrg } from "./org.repository.ts";

type CreateInput = z.output<typeof organisationCreate>;
type EditInput = z.output<typeof organisationEdit>;

const fieldError = (field: string, key: string) => new ValidationError([{ field, key, values: {} }]);

async function checkCode(db: Queryable, tenantId: number, code: string | null, exceptId = 0) {
  if (code && (await codeTaken(db, tenantId, code, exceptId))) throw fieldError("authorisationCode", "validation:taken");
}

/**
 * Organisations of the channel. Changes stay inside what the caller may change: a new
 * organisation hangs below one the caller manages (default: the caller's own; the manufacturer
 * for back office), of a kind allowed there (a dealer under a distributor…).
 */
export function createOrgService(db: Db) {
  return {
    async create(caller: AuthContext, scope: DataScope, input: CreateInput) {
      const id = await db.transaction(async (tx) => {
        const parentId = input.parentId ?? caller.org?.id ?? (await rootOrg(tx, caller.tenantId))?.id;
        const parent = parentId === undefined ? undefined : await findParent(tx, scope, parentId);
        if (!parent) throw notFound();
        if (!ORG_PARENT_KINDS[input.kind].includes(parent.kind)) throw fieldError("parentId", "validation:parentKind");
        await checkCode(tx, caller.tenantId, input.authorisationCode);
        // Hashed only once the request is known to be allowed: argon2 is deliberately slow.
        const passwordHash = await hashPassword(input.account.password);
        const created = await first<{ id: number }>(
          tx,
          sql`INSERT INTO organisation (tenant_id, parent_id, kind, path, name, authorisation_code, contact, email, phone,
                                        show_under_dealers, remarks)
              VALUES (${caller.tenantId}, ${parent.id}, ${input.kind}, '', ${input.name}, ${input.authorisationCode},
                      ${input.contact}, ${input.email}, ${input.phone}, ${input.showUnderDealers}, ${input.remarks})
              RETURNING id`,
        );
        const orgId = created?.id as number;
        const accountId = await insertAccount(
          tx,
          {
            tenantId: caller.tenantId,
            username: input.account.username,
            passwordHash,
            name: input.contact,
            userType: 1,
            orgId,
            phone: input.phone,
            email: input.email,
            mustChangePassword: true,
          },
          "account.username",
        );
        await setRoles(tx, caller.tenantId, accountId, { codes: [ORG_ACCOUNT_ROLE[input.kind]] });
        await tx.query("UPDATE organisation SET path = $2 || id || '/', account_user_id = $3 WHERE id = $1", [
          orgId,
          parent.path,
          accountId,
        ]);
        return orgId;
      });
      return (await findOrg(db, scope, id)) ?? Promise.reject(notFound());
    },

    async edit(caller: AuthContext, scope: DataScope, input: EditInput) {
      await db.transaction(async (tx) => {
        const org = await findOrg(tx, scope, input.id, true);
        if (!org) throw notFound();
        if (org.kind === "installer" && !input.authorisationCode) throw fieldError("authorisationCode", "validation:required");
        await checkCode(tx, caller.tenantId, input.authorisationCode, org.id);
        await tx.query(
          `UPDATE organisation SET name = $2, authorisation_code = $3, contact = $4, email = $5, phone = $6,
                  show_under_dealers = $7, remarks = $8, updated_at = now() WHERE id = $1`,
          [
            org.id,
            input.name,
            input.authorisationCode,
            input.contact,
            input.email,
            input.phone,
            input.showUnderDealers,
            input.remarks,
          ],
        );
      });
      return (await findOrg(db, scope, input.id)) ?? Promise.reject(notFound());
    },

    /** Deletes an organisation with nothing below it; its enterprise account goes with it. */
    async remove(caller: AuthContext, scope: DataScope, id: number) {
      await db.transaction(async (tx) => {
        const org = await findOrg(tx, scope, id, true);
        if (!org) throw notFound();
        if (org.id === caller.org?.id) throw business("channel:deleteOwn");
        if ((await dependants(tx, org)) > 0) throw business("channel:hasDependants");
        await tx.query("UPDATE organisation SET deleted_at = now(), updated_at = now() WHERE id = $1", [org.id]);
        if (org.account_user_id) await anonymiseAccounts(tx, [org.account_user_id]);
      });
    },
  };
}

export type OrgService = ReturnType<typeof createOrgService>;
