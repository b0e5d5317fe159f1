import { API } from "@ess/contracts";
import { PRODUCT } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import { bindRoute } from "../../http/route.ts";
import type { AuthService } from "./auth.service.ts";

export function registerAuthRoutes(app: FastifyInstance, auth: AuthService) {
  bindRoute(app, API.auth.login, async ({ request, input }) => {
    const tenantId = Number(request.headers["tenant-id"] ?? PRODUCT.defaultTenantId) || PRODUCT.defaultTenantId;
    const session = await auth.login(tenantId, input.body.username, input.body.password, request.ip);
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
}
