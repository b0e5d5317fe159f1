import type { Queryable } from "../../db/db.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { ValidationError } from "../../http/errors.ts";

export interface NewAccount {
  tenantId: number;
  username: string;
  passwordHash: string;
  name: string;
  userType: 0 | 1 | 2;
  orgId: number | null;
  parentUserId?: number | null;
  phone?: string | null;
  email?: string | null;
  contacts?: string;
  address?: string;
  timeZone?: string | null;
  mustChangePassword: boolean;
}

const taken = (field: string) => new ValidationError([{ field, key: "validation:taken", values: {} }]);

export async function usernameTaken(db: Queryable, tenantId: number, username: string, exceptId = 0) {
  const { rows } = await db.query(
    "SELECT 1 FROM sys_user WHERE tenant_id = $1 AND lower(username) = lower($2) AND deleted_at IS NULL AND id <> $3",
    [tenantId, username, exceptId],
  );
  return rows.length > 0;
}

/**
 * Inserts an account (any type); a taken user name is a refusal of the `username` field, or of
 * `field` when the name travels elsewhere in the request (an organisation's `account.username`).
 */
export async function insertAccount(db: Queryable, a: NewAccount, field = "username"): Promise<number> {
  if (await usernameTaken(db, a.tenantId, a.username)) throw taken(field);
  try {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO sys_user (tenant_id, username, password_hash, name, user_type, org_id, parent_user_id, phone, email,
                             contacts, address, time_zone, must_change_password)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
      [
        a.tenantId,
        a.username,
        a.passwordHash,
        a.name,
        a.userType,
        a.orgId,
        a.parentUserId ?? null,
        a.phone ?? null,
        a.email ?? null,
        a.contacts ?? "",
        a.address ?? "",
        a.timeZone ?? null,
        a.mustChangePassword,
      ],
    );
    return rows[0]?.id as number;
  } catch (error) {
    if (isUniqueViolation(error)) throw taken(field);
    throw error;
  }
}

/** Replaces an account's roles by the roles of the given codes or ids (of the same tenant). */
export async function setRoles(db: Queryable, tenantId: number, userId: number, roles: { codes?: string[]; ids?: number[] }) {
  await db.query("DELETE FROM sys_user_role WHERE user_id = $1", [userId]);
  await db.query(
    `INSERT INTO sys_user_role (user_id, role_id)
     SELECT $1, id FROM sys_role WHERE tenant_id = $2 AND (code = ANY($3::text[]) OR id = ANY($4::bigint[]))`,
    [userId, tenantId, roles.codes ?? [], roles.ids ?? []],
  );
}

/**
 * Removes an account for good: the row stays (operation log lines and requests point at it) but
 * says nothing about the person any more, cannot sign in and frees its user name.
 */
export async function anonymiseAccounts(db: Queryable, userIds: readonly number[]) {
  if (userIds.length === 0) return;
  await db.query(
    `UPDATE sys_user SET username = 'deleted-' || id, name = '', phone = NULL, email = NULL, contacts = '', address = '',
            password_hash = '!', status = 1, deleted_at = now(), updated_at = now()
      WHERE id = ANY($1::bigint[])`,
    [userIds],
  );
  await db.query("UPDATE auth_session SET revoked_at = now() WHERE user_id = ANY($1::bigint[]) AND revoked_at IS NULL", [
    userIds,
  ]);
  await db.query("DELETE FROM sys_user_social WHERE user_id = ANY($1::bigint[])", [userIds]);
  await db.query("DELETE FROM sys_user_role WHERE user_id = ANY($1::bigint[])", [userIds]);
  await db.query("UPDATE device SET owner_user_id = NULL, updated_at = now() WHERE owner_user_id = ANY($1::bigint[])", [userIds]);
}
