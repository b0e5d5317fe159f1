import type { FastifyRequest } from "fastify";
import { AppError } from "../../http/errors.ts";
import type { UserRecord } from "./auth.repository.ts";

/** What stands between a sign-in request and the password check. */
export interface SignInGuard {
  /** Captcha or slide-verification proof (428 when missing or wrong). */
  checkProof(request: FastifyRequest, body: { randomStr?: string | undefined; code?: string | undefined }): Promise<void>;
  /** Runs the password check, counting failures; 426 on wrong credentials. */
  signIn(tenantId: number, username: string, ip: string, verify: () => Promise<UserRecord | null>): Promise<UserRecord>;
}

export function createSignInGuard(): SignInGuard {
  return {
    async checkProof() {},
    async signIn(_tenantId, _username, _ip, verify) {
      const user = await verify();
      if (!user) throw new AppError("badCredentials");
      return user;
    },
  };
}
