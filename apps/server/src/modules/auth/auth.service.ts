import { isPermissionId, PERMISSION_IDS, type PermissionId } from "@ess/domain";
import type { FastifyRequest } from "fastify";
import type { Db } from "../../db/db.ts";
import { AppError } from "../../http/errors.ts";
import type { AuthContext, Authenticator } from "./auth.context.ts";
import {
  findSessionByAccessHash,
  findUserByUsername,
  insertSession,
  revokeSession,
  type SessionRecord,
} from "./auth.repository.ts";
import { hashPassword, verifyPassword } from "./password.ts";
import { createSessionCache } from "./session-cache.ts";
import { bearerToken, newToken, tokenDigest } from "./tokens.ts";

/** The built-in administrator role holds every permission of the registry, present and future. */
export const ADMIN_ROLE = "ADMIN";

export interface AuthSettings {
  accessTtlS: number;
  refreshTtlS: number;
  /** How long a resolved session is reused without asking the database (0: never). */
  sessionCacheS: number;
}

// Verifying against a real hash when the account is unknown keeps both answers equally slow.
const decoyHash = hashPassword("decoy-password-1");

export function createAuthService(db: Db, settings: AuthSettings) {
  const cache = createSessionCache(settings.sessionCacheS * 1000);

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

  const authenticator: Authenticator = {
    require: (request) => resolve(request, true) as Promise<AuthContext>,
    optional: (request) => resolve(request, false),
  };

  return {
    authenticator,

    async login(tenantId: number, username: string, password: string, ip: string | null) {
      const user = await findUserByUsername(db, tenantId, username);
      const ok = await verifyPassword(password, user?.password_hash ?? (await decoyHash));
      if (!user || !ok) throw new AppError("badCredentials");
      if (user.status !== 0) throw new AppError("business", "auth:login.locked");
      const accessToken = newToken();
      const refreshToken = newToken();
      const accessHash = tokenDigest(accessToken);
      await insertSession(db, {
        tenantId,
        userId: user.id,
        accessHash,
        refreshHash: tokenDigest(refreshToken),
        accessTtlS: settings.accessTtlS,
        refreshTtlS: settings.refreshTtlS,
        ip,
      });
      const session = await findSessionByAccessHash(db, accessHash);
      if (!session) throw new AppError("internal");
      return { user, context: toContext(session), accessToken, refreshToken, expiresIn: settings.accessTtlS };
    },

    async logout(auth: AuthContext) {
      await revokeSession(db, auth.sessionId);
      cache.forgetSession(auth.sessionId);
    },

    /** Drops the cached sessions of a user whose account, roles or password just changed. */
    forgetUser: (userId: number) => cache.forgetUser(userId),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
