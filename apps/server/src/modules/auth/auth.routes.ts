import { API, TOKEN_CLIENT } from "@ess/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../../http/errors.ts";
import { bindRoute } from "../../http/route.ts";
import { tenantOf } from "../../http/tenant.ts";
import type { AuthService } from "./auth.service.ts";
import type { SignInGuard } from "./sign-in-guard.ts";

/** Token calls must name the console as their client (spec §6: a fixed basic credential). */
function requireClient(request: FastifyRequest) {
  const header = request.headers.authorization ?? "";
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header.trim());
  const decoded = match ? Buffer.from(match[1] as string, "base64").toString("utf8") : "";
  if (decoded !== `${TOKEN_CLIENT.id}:${TOKEN_CLIENT.secret}`) throw new AppError("unauthorized", "auth:token.client");
}

export function registerAuthRoutes(app: FastifyInstance, auth: AuthService, guard: SignInGuard) {
  bindRoute(app, API.auth.login, async ({ request, input }) => {
    const tenantId = tenantOf(request);
    const { username, password, ...proof } = input.body;
    const user = await guard.passwordSignIn({ tenantId, username, ip: request.ip, ...proof }, () =>
      auth.verifyCredentials(tenantId, username, password),
    );
    const session = await auth.openSession(user, request.ip);
    return {
      access_token: session.accessToken,
      refresh_token: session.refreshToken,
      token_type: "bearer" as const,
      expires_in: session.expiresIn,
      sfFirst: session.user.must_change_password,
      tenant_id: session.user.tenant_id,
      user_id: session.user.id,
      username: session.user.username,
      authorities: [...session.context.roles.map((r) => `ROLE_${r}`), ...session.context.permissions],
    };
  });

  bindRoute(app, API.token.refresh, async ({ request, input }) => {
    requireClient(request);
    const tokens = await auth.refresh(input.query.refresh_token, tenantOf(request), request.ip);
    return {
      access_token: tokens.accessToken,
      refresh_token: tokens.refreshToken,
      token_type: "bearer" as const,
      expires_in: tokens.expiresIn,
    };
  });

  bindRoute(app, API.auth.userInfo, async ({ auth: caller }) => ({
    user: {
      id: caller.userId,
      tenantId: caller.tenantId,
      username: caller.username,
      name: caller.name,
      userType: caller.userType,
      timeZone: caller.timeZone,
    },
    roles: caller.roles,
    permissions: [...caller.permissions],
  }));

  bindRoute(app, API.auth.logout, async ({ auth: caller }) => {
    await auth.logout(caller);
    return null;
  });

  bindRoute(app, API.auth.passwordEdit, async ({ auth: caller, input, request }) => {
    await guard.passwordCheck({ tenantId: caller.tenantId, username: caller.username, ip: request.ip }, () =>
      auth.isOwnPassword(caller, input.body.oldPassword),
    );
    await auth.changePassword(caller, input.body.newPassword);
    return null;
  });
}
