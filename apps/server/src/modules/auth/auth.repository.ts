import { randomUUID } from "node:crypto";
import type { OrgKind } from "@ess/domain";
import type { Queryable } from "../../db/db.ts";

export interface UserRecord {
  id: number;
  tenant_id: number;
  username: string;
  password_hash: string;
  name: string;
  user_type: number;
  status: number;
  time_zone: string | null;
  must_change_password: boolean;
}

export interface SessionRecord extends Omit<UserRecord, "password_hash" | "id"> {
  session_id: number;
  org_id: number | null;
  org_path: string | null;
  org_kind: OrgKind | null;
  org_parent_id: number | null;
  parent_user_id: number | null;
  user_id: number;
  access_expires_at: Date;
  revoked_at: Date | null;
  roles: string[];
  permissions: string[];
}

const USER_COLUMNS = "id, tenant_id, username, password_hash, name, user_type, status, time_zone, must_change_password";

export function findUserByUsername(db: Queryable, tenantId: number, username: string) {
  return db
    .query<UserRecord>(
      `SELECT ${USER_COLUMNS} FROM sys_user
        WHERE tenant_id = $1 AND lower(username) = lower($2) AND deleted_at IS NULL`,
      [tenantId, username],
    )
    .then((r) => r.rows[0]);
}

export function findUserById(db: Queryable, userId: number) {
  return db
    .query<UserRecord>(`SELECT ${USER_COLUMNS} FROM sys_user WHERE id = $1 AND deleted_at IS NULL`, [userId])
    .then((r) => r.rows[0]);
}

export interface NewSession {
  tenantId: number;
  userId: number;
  accessHash: Buffer;
  refreshHash: Buffer;
  accessTtlS: number;
  refreshTtlS: number;
  ip: string | null;
  familyId?: string;
}

export async function insertSession(db: Queryable, s: NewSession): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO auth_session
       (family_id, tenant_id, user_id, access_hash, refresh_hash, access_expires_at, refresh_expires_at, ip)
     VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6), now() + make_interval(secs => $7), $8)
     RETURNING id`,
    [s.familyId ?? randomUUID(), s.tenantId, s.userId, s.accessHash, s.refreshHash, s.accessTtlS, s.refreshTtlS, s.ip],
  );
  return rows[0]?.id as number;
}

/** The session of an access token with its user, roles and granted permissions. */
export function findSessionByAccessHash(db: Queryable, accessHash: Buffer) {
  return db
    .query<SessionRecord>(
      `SELECT s.id AS session_id, s.access_expires_at, s.revoked_at,
              u.id AS user_id, u.tenant_id, u.username, u.name, u.user_type, u.status, u.time_zone,
              u.must_change_password, u.parent_user_id,
              o.id AS org_id, o.path AS org_path, o.kind AS org_kind, o.parent_id AS org_parent_id,
              coalesce(array_agg(DISTINCT r.code) FILTER (WHERE r.code IS NOT NULL), '{}') AS roles,
              coalesce(array_agg(DISTINCT rp.permission) FILTER (WHERE rp.permission IS NOT NULL), '{}') AS permissions
         FROM auth_session s
         JOIN sys_user u ON u.id = s.user_id AND u.deleted_at IS NULL
         LEFT JOIN organisation o ON o.id = u.org_id AND o.deleted_at IS NULL
         LEFT JOIN sys_user_role ur ON ur.user_id = u.id
         LEFT JOIN sys_role r ON r.id = ur.role_id
         LEFT JOIN sys_role_permission rp ON rp.role_id = r.id
        WHERE s.access_hash = $1
        GROUP BY s.id, u.id, o.id`,
      [accessHash],
    )
    .then((r) => r.rows[0]);
}

export interface RefreshRecord {
  id: number;
  family_id: string;
  tenant_id: number;
  user_id: number;
  refresh_expired: boolean;
  rotated_at: Date | null;
  revoked_at: Date | null;
}

/** The session a refresh token belongs to, locked for the rotation. */
export function findSessionByRefreshHash(db: Queryable, refreshHash: Buffer) {
  return db
    .query<RefreshRecord>(
      `SELECT id, family_id, tenant_id, user_id, refresh_expires_at <= now() AS refresh_expired, rotated_at, revoked_at
         FROM auth_session WHERE refresh_hash = $1 FOR UPDATE`,
      [refreshHash],
    )
    .then((r) => r.rows[0]);
}

/** Marks a session's refresh token used: its access token ends with it. */
export function markRotated(db: Queryable, sessionId: number) {
  return db.query("UPDATE auth_session SET rotated_at = now(), revoked_at = coalesce(revoked_at, now()) WHERE id = $1", [
    sessionId,
  ]);
}

/** Revokes every session of one sign-in (the original and all its rotations); returns their ids. */
export async function revokeFamily(db: Queryable, familyId: string): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    "UPDATE auth_session SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL RETURNING id",
    [familyId],
  );
  return rows.map((r) => r.id);
}

export async function revokeSessionFamily(db: Queryable, sessionId: number): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    `UPDATE auth_session SET revoked_at = now()
      WHERE family_id = (SELECT family_id FROM auth_session WHERE id = $1) AND revoked_at IS NULL RETURNING id`,
    [sessionId],
  );
  return rows.map((r) => r.id);
}

/** Ends every session of a user, except (optionally) the sign-in the caller is using. */
export function revokeUserSessions(db: Queryable, userId: number, keepSessionId?: number) {
  return db.query(
    `UPDATE auth_session SET revoked_at = now()
      WHERE user_id = $1 AND revoked_at IS NULL
        AND ($2::bigint IS NULL OR family_id <> (SELECT family_id FROM auth_session WHERE id = $2))`,
    [userId, keepSessionId ?? null],
  );
}

export function setPassword(db: Queryable, userId: number, hash: string, mustChange: boolean) {
  return db.query(
    `UPDATE sys_user SET password_hash = $2, must_change_password = $3, password_changed_at = now(), updated_at = now()
      WHERE id = $1`,
    [userId, hash, mustChange],
  );
}

export function recordSignIn(db: Queryable, userId: number, ip: string | null) {
  return db.query("UPDATE sys_user SET last_login_at = now(), last_login_ip = $2 WHERE id = $1", [userId, ip]);
}
