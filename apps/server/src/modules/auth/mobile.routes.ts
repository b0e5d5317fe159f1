import { API } from "@ess/contracts";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/db.ts";
import { AppError, ValidationError } from "../../http/errors.ts";
import { bindRoute } from "../../http/route.ts";
import { tenantOf } from "../../http/tenant.ts";
import type { UserRecord } from "./auth.repository.ts";
import type { AuthService } from "./auth.service.ts";
import type { Challenges } from "./challenges.ts";
import {
  phoneDigits,
  SMS_CODE_TTL_S,
  SMS_LIMITS,
  SMS_MAX_ATTEMPTS,
  type SmsSender,
  type SocialProvider,
  smsCode,
} from "./mobile-sign-in.ts";
import type { RateCounter } from "./rate-counter.ts";

export interface MobileDeps {
  db: Db;
  auth: AuthService;
  challenges: Challenges;
  counter: RateCounter;
  sms: SmsSender;
  social: readonly SocialProvider[];
}

const USER = "id, tenant_id, username, password_hash, name, user_type, status, time_zone, must_change_password";

export function registerMobileRoutes(app: FastifyInstance, d: MobileDeps) {
  async function tokensFor(user: UserRecord | undefined, ip: string) {
    if (!user) throw new AppError("unboundLogin");
    const s = await d.auth.openSession(user, ip);
    return {
      access_token: s.accessToken,
      refresh_token: s.refreshToken,
      token_type: "bearer" as const,
      expires_in: s.expiresIn,
      sfFirst: user.must_change_password,
      user_info: {
        id: user.id,
        tenantId: user.tenant_id,
        username: user.username,
        name: user.name,
        userType: user.user_type,
        timeZone: user.time_zone,
      },
    };
  }

  function provider(state: string, field: string) {
    const found = d.social.find((p) => p.id.toLowerCase() === state.toLowerCase());
    if (!found) throw new ValidationError([{ field, key: "validation:invalid", values: {} }]);
    return found;
  }

  // The code goes out whether or not an account has the number: the answer must not tell who is
  // a customer. Only after the code proves the number does sign-in say that none is bound (417).
  bindRoute(app, API.mobile.sendCode, async ({ request, input }) => {
    const digits = phoneDigits(input.body.mobile);
    const tenantId = tenantOf(request);
    if ((await d.counter.hit("sms-number", `${tenantId}:${digits}`, SMS_LIMITS.perNumberWindowS)) > 1) {
      throw new AppError("rateLimited", "auth:sms.wait");
    }
    if ((await d.counter.hit("sms-address", request.ip, SMS_LIMITS.perAddressWindowS)) > SMS_LIMITS.perAddress) {
      throw new AppError("rateLimited");
    }
    const code = smsCode();
    await d.challenges.put("sms", `${tenantId}:${digits}`, SMS_CODE_TTL_S, { text: code });
    const text = request.t("auth:sms.text", { code, minutes: SMS_CODE_TTL_S / 60 });
    await d.sms.send({ to: input.body.mobile, code, text });
    return { expiresIn: SMS_CODE_TTL_S };
  });

  bindRoute(app, API.mobile.sms, async ({ request, input }) => {
    const tenantId = tenantOf(request);
    const digits = phoneDigits(input.query.mobile);
    const outcome = await d.challenges.attempt("sms", `${tenantId}:${digits}`, input.query.code, SMS_MAX_ATTEMPTS);
    if (outcome !== "ok") throw new AppError("badCaptcha", "auth:sms.wrongCode");
    const { rows } = await d.db.query<UserRecord>(
      `SELECT ${USER} FROM sys_user
        WHERE tenant_id = $1 AND deleted_at IS NULL AND regexp_replace(coalesce(phone, ''), '\\D', '', 'g') = $2
        LIMIT 2`,
      [tenantId, digits],
    );
    // Two accounts on one number cannot tell which one is meant: sign in with the password.
    return tokensFor(rows.length === 1 ? rows[0] : undefined, request.ip);
  });

  bindRoute(app, API.mobile.social, async ({ request, input }) => {
    const at = input.query.mobile.indexOf("@");
    const found = provider(input.query.mobile.slice(0, at), "mobile");
    const externalId = await found.identify(input.query.mobile.slice(at + 1));
    if (!externalId) throw new AppError("badCaptcha", "auth:social.badCode");
    const { rows } = await d.db.query<UserRecord>(
      `SELECT ${USER} FROM sys_user
        WHERE deleted_at IS NULL AND id = (SELECT user_id FROM sys_user_social
                                            WHERE tenant_id = $1 AND provider = $2 AND external_id = $3)`,
      [tenantOf(request), found.id, externalId],
    );
    return tokensFor(rows[0], request.ip);
  });

  bindRoute(app, API.mobile.bindSocial, async ({ auth, input }) => {
    const found = provider(input.body.state, "state");
    const externalId = await found.identify(input.body.code);
    if (!externalId) throw new AppError("badCaptcha", "auth:social.badCode");
    await d.db.transaction(async (tx) => {
      const taken = await tx.query<{ user_id: number }>(
        "SELECT user_id FROM sys_user_social WHERE tenant_id = $1 AND provider = $2 AND external_id = $3",
        [auth.tenantId, found.id, externalId],
      );
      if (taken.rows[0] && taken.rows[0].user_id !== auth.userId) throw new AppError("conflict", "auth:social.taken");
      await tx.query("DELETE FROM sys_user_social WHERE user_id = $1 AND provider = $2", [auth.userId, found.id]);
      await tx.query("INSERT INTO sys_user_social (tenant_id, provider, external_id, user_id) VALUES ($1, $2, $3, $4)", [
        auth.tenantId,
        found.id,
        externalId,
        auth.userId,
      ]);
    });
    return null;
  });

  bindRoute(app, API.mobile.unbindSocial, async ({ auth, input }) => {
    const found = provider(input.body.state, "state");
    await d.db.query("DELETE FROM sys_user_social WHERE user_id = $1 AND provider = $2", [auth.userId, found.id]);
    return null;
  });
}
