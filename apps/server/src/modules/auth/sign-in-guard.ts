import { createHash } from "node:crypto";
import { SIGN_IN_LIMITS } from "@ess/domain";
import type { Db } from "../../db/db.ts";
import { AppError, ValidationError } from "../../http/errors.ts";
import type { UserRecord } from "./auth.repository.ts";
import type { Challenges } from "./challenges.ts";
import type { RateCounter } from "./rate-counter.ts";

export interface SignInPolicy {
  /** Require a captcha or slide proof with the password (ESS_CAPTCHA). */
  captcha: boolean;
  accountFailures: number;
  lockMinutes: number;
  addressFailures: number;
  addressWindowMinutes: number;
}

export const DEFAULT_SIGN_IN_POLICY: SignInPolicy = { captcha: true, ...SIGN_IN_LIMITS };

export interface PasswordAttempt {
  tenantId: number;
  username: string;
  ip: string;
  randomStr?: string | undefined;
  code?: string | undefined;
  slideProof?: string | undefined;
}

export const proofKey = (proof: string) => createHash("sha256").update(proof).digest("hex");

interface LockState {
  id: number;
  status: number;
  failed_logins: number;
  locked_until: Date | null;
  cooled_down: boolean;
}

/**
 * Everything between a password sign-in request and the session: the address limit (429), the
 * captcha or slide proof (428), the password check (426) with its failure count that locks the
 * account, and the lock itself — released by an administrator or, for a lock that failures
 * caused, by the cool-down.
 */
export function createSignInGuard(db: Db, challenges: Challenges, counter: RateCounter, policy: SignInPolicy) {
  const windowS = policy.addressWindowMinutes * 60;

  async function checkProof(attempt: PasswordAttempt) {
    if (!policy.captcha) return;
    let outcome: string;
    if (attempt.slideProof) outcome = await challenges.consume("slide-proof", proofKey(attempt.slideProof), "1");
    else if (attempt.randomStr && attempt.code) outcome = await challenges.consume("captcha", attempt.randomStr, attempt.code);
    else throw new AppError("badCaptcha", "auth:captcha.required");
    if (outcome !== "ok") throw new AppError("badCaptcha");
  }

  async function lockState(tenantId: number, username: string) {
    const { rows } = await db.query<LockState>(
      `SELECT id, status, failed_logins, locked_until, locked_until IS NOT NULL AND locked_until <= now() AS cooled_down
         FROM sys_user WHERE tenant_id = $1 AND lower(username) = lower($2) AND deleted_at IS NULL`,
      [tenantId, username],
    );
    const state = rows[0];
    if (state?.status === 1 && state.cooled_down) {
      await db.query("UPDATE sys_user SET status = 0, failed_logins = 0, locked_until = NULL WHERE id = $1", [state.id]);
      return { ...state, status: 0, failed_logins: 0, locked_until: null };
    }
    return state;
  }

  async function countFailure(ip: string, state: LockState | undefined) {
    await counter.hit("sign-in-address", ip, windowS);
    if (state?.status !== 0) return;
    await db.query(
      `UPDATE sys_user SET failed_logins = failed_logins + 1,
              status = CASE WHEN failed_logins + 1 >= $2 THEN 1 ELSE status END,
              locked_until = CASE WHEN failed_logins + 1 >= $2 THEN now() + make_interval(mins => $3) ELSE locked_until END
        WHERE id = $1`,
      [state.id, policy.accountFailures, policy.lockMinutes],
    );
  }

  const addressBlocked = async (ip: string) => (await counter.peek("sign-in-address", ip, windowS)) >= policy.addressFailures;
  const blocked = () => new AppError("rateLimited", "auth:login.addressBlocked", { minutes: policy.addressWindowMinutes });
  const forgetFailures = async (state: LockState | undefined) => {
    if (state && state.failed_logins > 0) await db.query("UPDATE sys_user SET failed_logins = 0 WHERE id = $1", [state.id]);
  };

  return {
    policy,

    async passwordSignIn(attempt: PasswordAttempt, verify: () => Promise<UserRecord | null>): Promise<UserRecord> {
      if (await addressBlocked(attempt.ip)) throw blocked();
      await checkProof(attempt);
      const state = await lockState(attempt.tenantId, attempt.username);
      const user = await verify();
      if (!user) {
        await countFailure(attempt.ip, state);
        throw new AppError("badCredentials");
      }
      if (state?.status === 1) {
        if (!state.locked_until) throw new AppError("business", "auth:login.locked");
        const minutes = Math.max(1, Math.ceil((state.locked_until.getTime() - Date.now()) / 60_000));
        throw new AppError("business", "auth:login.lockedFor", { minutes });
      }
      await forgetFailures(state);
      return user;
    },

    /**
     * A signed-in caller proving their password again (changing it): a wrong one counts as a failed
     * sign-in — the same address limit and the same account lock-out — so that a session cannot
     * be used to guess the password without limit. A lock ends the caller's sessions too.
     */
    async passwordCheck(attempt: Pick<PasswordAttempt, "tenantId" | "username" | "ip">, verify: () => Promise<boolean>) {
      if (await addressBlocked(attempt.ip)) throw blocked();
      const state = await lockState(attempt.tenantId, attempt.username);
      if (!(await verify())) {
        await countFailure(attempt.ip, state);
        throw new ValidationError([{ field: "oldPassword", key: "validation:passwordWrong", values: {} }]);
      }
      await forgetFailures(state);
    },
  };
}

export type SignInGuard = ReturnType<typeof createSignInGuard>;
