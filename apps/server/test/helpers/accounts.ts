import type { FastifyInstance } from "fastify";
import type { Db } from "../../src/db/db.ts";
import { hashPassword } from "../../src/modules/auth/password.ts";

export interface TestAccount {
  username: string;
  password?: string;
  roles?: string[];
  userType?: 0 | 1 | 2;
  name?: string;
  mustChangePassword?: boolean;
}

/** Inserts an account straight into the database (for tests of what happens after sign-in). */
export async function createAccount(db: Db, account: TestAccount): Promise<number> {
  const hash = await hashPassword(account.password ?? "Passw0rd1");
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO sys_user (tenant_id, username, password_hash, name, user_type, must_change_password)
     VALUES (1, $1, $2, $3, $4, $5) RETURNING id`,
    [account.username, hash, account.name ?? account.username, account.userType ?? 0, account.mustChangePassword ?? false],
  );
  const id = rows[0]?.id as number;
  for (const role of account.roles ?? []) {
    await db.query("INSERT INTO sys_user_role (user_id, role_id) SELECT $1, id FROM sys_role WHERE tenant_id = 1 AND code = $2", [
      id,
      role,
    ]);
  }
  return id;
}

/** Signs in and returns both tokens. */
export async function signInTokens(app: FastifyInstance, username: string, password: string) {
  const response = await app.inject({ method: "POST", url: "/login?grant_type=admin", payload: { username, password } });
  const body = response.json() as { code: number; data: { access_token: string; refresh_token: string; sfFirst: boolean } };
  if (body.code !== 0) throw new Error(`sign-in of ${username} failed: ${response.body}`);
  return body.data;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
