import { ADMIN_ROLE_CODE, isPermissionId, type OrgKind, PERMISSION_IDS, type PermissionId } from "@ess/domain";
import type { FastifyRequest } from "fastify";
import type { ClusterBus } from "../../cluster/bus.ts";
import type { Db, Queryable } from "../../db/db.ts";
import { AppError } from "../../http/errors.ts";
import type { AuthContext, Authenticator } from "./auth.context.ts";
import {
  findSessionByAccessHash,
  findSessionByRefreshHash,
  findUserById,
  findUserByUsername,
  insertSession,
  markRotated,
  recordSignIn,
  revokeFamily,
  revokeSessionFamily,
  revokeUserSessions,
  type SessionRecord,
  setPassword,
  type UserRecord,
} from "./auth.repository.ts";
import { hashPassword, verifyPassword } from "./password.ts";
import { createSessionCache } from "./session-cache.ts";
import { bearerToken, newToken, tokenDigest } from "./tokens.ts";

/** The built-in administrator role holds every permission of the registry, present and future. */
export const ADMIN_ROLE = ADMIN_ROLE_CODE;

export interface AuthSettings {
  accessTtlS: number;
  refreshTtlS: number;
  /** How long a resolved session is reused without asking the database (0: never). */
  sessionCacheS: number;
  /** Sign-outs and account changes drop cached sessions in every process of the console. */
  cluster?: ClusterBus;
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

// Verifying against a real hash when the account is unknown keeps both answers equally slow.
const decoyHash = hashPassword("decoy-password-1");

export function createAuthService(db: Db, settings: AuthSettings) {
  const cache = createSessionCache(settings.sessionCacheS * 1000, undefined, settings.cluster);

  function toContext(s: SessionRecord): AuthContext {
    const granted = s.roles.includes(ADMIN_ROLE) ? PERMISSION_IDS : s.permissions.filter(isPermissionId);
    return {
      sessionId: s.session_id,
      userId: s.user_id,
      tenantId: s.tenant_id,
      username: s.username,
      name: s.name,
      userType: s.user_type,
      timeZone: s.time_zone,
      roles: s.roles,
      permissions: new Set<PermissionId>(granted),
      mustChangePassword: s.must_change_password,
      org:
        s.org_id === null
          ? null
          : { id: s.org_id, path: s.org_path as string, kind: s.org_kind as OrgKind, parentId: s.org_parent_id },
      parentUserId: s.parent_user_id,
    };
  }

  async function resolve(request: FastifyRequest, required: boolean): Promise<AuthContext | null> {
    const token = bearerToken(request.headers.authorization);
    if (!token) {
      if (required) throw new AppError("unauthorized");
      return null;
    }
    const digest = tokenDigest(token);
    const key = digest.toString("base64");
    const cached = cache.get(key);
    if (cached) {
      if (cached.accessExpiresAt <= Date.now()) throw new AppError("sessionExpired");
      return cached.context;
    }
    const session = await findSessionByAccessHash(db, digest);
    if (!session || session.revoked_at || session.status !== 0) throw new AppError("unauthorized");
    const expiresAt = session.access_expires_at.getTime();
    if (expiresAt <= Date.now()) throw new AppError("sessionExpired");
    const context = toContext(session);
    cache.set(key, context, expiresAt);
    return context;
  }

  async function issue(q: Queryable, user: Pick<UserRecord, "id" | "tenant_id">, ip: string | null, familyId?: string) {
    const tokens: IssuedTokens = { accessToken: newToken(), refreshToken: newToken(), expiresIn: settings.accessTtlS };
    const accessHash = tokenDigest(tokens.accessToken);
    await insertSession(q, {
      tenantId: user.tenant_id,
      userId: user.id,
      accessHash,
      refreshHash: tokenDigest(tokens.refreshToken),
      accessTtlS: settings.accessTtlS,
      refreshTtlS: settings.refreshTtlS,
      ip,
      ...(familyId ? { familyId } : {}),
    });
    return { tokens, accessHash };
  }

  const authenticator: Authenticator = {
    require: (request) => resolve(request, true) as Promise<AuthContext>,
    optional: (request) => resolve(request, false),
  };

  return {
    authenticator,

    /** Checks account and password; null when either is wrong (the caller counts the failure). */
    async verifyCredentials(tenantId: number, username: string, password: string): Promise<UserRecord | null> {
      const user = await findUserByUsername(db, tenantId, username);
      const ok = await verifyPassword(password, user?.password_hash ?? (await decoyHash));
      return user && ok ? user : null;
    },

    /** Opens a session for an account whose identity was proven (password, SMS code, social login). */
    async openSession(user: UserRecord, ip: string | null) {
      if (user.status !== 0) throw new AppError("business", "auth:login.locked");
      const { tokens, accessHash } = await issue(db, user, ip);
      await recordSignIn(db, user.id, ip);
      const session = await findSessionByAccessHash(db, accessHash);
      if (!session) throw new AppError("internal");
      return { user, context: toContext(session), ...tokens };
    },

    /**
     * Exchanges a refresh token for new tokens. Each refresh token works once: a second use means
     * it leaked (or was stolen and used first), so the whole sign-in is revoked.
     */
    async refresh(refreshToken: string, tenantId: number, ip: string | null): Promise<IssuedTokens> {
      const outcome = await db.transaction(async (tx) => {
        const row = await findSessionByRefreshHash(tx, tokenDigest(refreshToken));
        if (!row || row.tenant_id !== tenantId) return { error: "unauthorized" as const };
        if (row.rotated_at) return { error: "reused" as const, revoked: await revokeFamily(tx, row.family_id) };
        if (row.revoked_at) return { error: "unauthorized" as const };
        if (row.refresh_expired) return { error: "sessionExpired" as const };
        const user = await findUserById(tx, row.user_id);
        if (user?.status !== 0) return { error: "unauthorized" as const };
        await markRotated(tx, row.id);
        cache.forgetSession(row.id);
        return { tokens: (await issue(tx, user, ip, row.family_id)).tokens };
      });
      if ("tokens" in outcome && outcome.tokens) return outcome.tokens;
      if (!("error" in outcome)) throw new AppError("internal");
      if (outcome.error === "reused") {
        for (const id of outcome.revoked) cache.forgetSession(id);
        throw new AppError("unauthorized", "auth:token.reused");
      }
      throw new AppError(outcome.error);
    },

    /** Sign-out ends the sign-in: the current tokens and every rotation of them. */
    async logout(auth: AuthContext) {
      for (const id of await revokeSessionFamily(db, auth.sessionId)) cache.forgetSession(id);
      cache.forgetSession(auth.sessionId);
    },

    /** Whether `password` is the caller's own (the sign-in guard counts a wrong one). */
    async isOwnPassword(auth: AuthContext, password: string): Promise<boolean> {
      const user = await findUserById(db, auth.userId);
      return user ? verifyPassword(password, user.password_hash) : false;
    },

    /** Changes the caller's own password (the old one already checked); the caller's other sign-ins end. */
    async changePassword(auth: AuthContext, newPassword: string) {
      const hash = await hashPassword(newPassword);
      await db.transaction(async (tx) => {
        await setPassword(tx, auth.userId, hash, false);
        await revokeUserSessions(tx, auth.userId, auth.sessionId);
      });
      cache.forgetUser(auth.userId);
    },

    /** Sets another account's password (administrator reset): it must be changed at next sign-in. */
    async resetPassword(userId: number, newPassword: string) {
      const hash = await hashPassword(newPassword);
      await db.transaction(async (tx) => {
        await setPassword(tx, userId, hash, true);
        await revokeUserSessions(tx, userId);
      });
      cache.forgetUser(userId);
    },

    /** Drops the cached sessions of a user whose account, roles or password just changed. */
    forgetUser: (userId: number) => cache.forgetUser(userId),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
