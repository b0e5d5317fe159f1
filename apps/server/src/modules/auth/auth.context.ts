import type { OrgKind, PermissionId } from "@ess/domain";
import type { FastifyRequest } from "fastify";

/** Who is calling: resolved from the bearer token on every request that is not public. */
export interface AuthContext {
  sessionId: number;
  userId: number;
  tenantId: number;
  username: string;
  name: string;
  userType: number;
  timeZone: string | null;
  roles: string[];
  permissions: ReadonlySet<PermissionId>;
  /** First sign-in or a reset password: only the password change (and a few reads) is allowed. */
  mustChangePassword: boolean;
  /** The caller's place in the channel hierarchy, from which its data scope follows. */
  org: { id: number; path: string; kind: OrgKind; parentId: number | null } | null;
  /** For a sub-user: its master user. */
  parentUserId: number | null;
}

export interface Authenticator {
  /** The caller, or a 401 (body code 5 when the session has expired). */
  require(request: FastifyRequest): Promise<AuthContext>;
  /** The caller when a valid token is sent, else null. */
  optional(request: FastifyRequest): Promise<AuthContext | null>;
}
