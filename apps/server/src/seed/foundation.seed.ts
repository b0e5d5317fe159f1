import { PRODUCT } from "@ess/domain";
import type { Db } from "../db/db.ts";
import { ADMIN_ROLE } from "../modules/auth/auth.service.ts";
import { generatePassword, hashPassword } from "../modules/auth/password.ts";

export const ADMIN_USERNAME = "admin";

export interface SeedOutcome {
  /** Set only when the administrator was created now with a generated password. */
  generatedAdminPassword: string | null;
  adminCreated: boolean;
}

/**
 * Tenant 1 and its administrator, created on the first start. The administrator's password is
 * ESS_ADMIN_PASSWORD or, when unset, generated, printed once and to be changed at first sign-in.
 * There is no default password anywhere.
 */
export async function seedFoundation(db: Db, adminPassword: string | undefined): Promise<SeedOutcome> {
  const generated = adminPassword ? null : generatePassword();
  const hash = await hashPassword(adminPassword ?? (generated as string));
  return db.transaction(async (tx) => {
    const tenantId = PRODUCT.defaultTenantId;
    await tx.query("INSERT INTO tenant (id, name) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING", [tenantId, "Default"]);
    await tx.query(
      `INSERT INTO sys_role (tenant_id, code, name, description, builtin)
       VALUES ($1, $2, 'Administrator', 'Every permission of the back office', true)
       ON CONFLICT (tenant_id, code) DO NOTHING`,
      [tenantId, ADMIN_ROLE],
    );
    const existing = await tx.query("SELECT 1 FROM sys_user WHERE tenant_id = $1 AND lower(username) = $2", [
      tenantId,
      ADMIN_USERNAME,
    ]);
    if (existing.rows.length > 0) return { generatedAdminPassword: null, adminCreated: false };
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO sys_user (tenant_id, username, password_hash, name, user_type, must_change_password)
       VALUES ($1, $2, $3, 'Administrator', 0, $4) RETURNING id`,
      [tenantId, ADMIN_USERNAME, hash, generated !== null],
    );
    await tx.query(
      "INSERT INTO sys_user_role (user_id, role_id) SELECT $1, id FROM sys_role WHERE tenant_id = $2 AND code = $3",
      [rows[0]?.id, tenantId, ADMIN_ROLE],
    );
    return { generatedAdminPassword: generated, adminCreated: true };
  });
}
