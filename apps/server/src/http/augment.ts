import type { RouteContract } from "@ess/contracts";
import type { Locale, RouteAccess } from "@ess/domain";
import type { AuditScope } from "../db/audit-scope.ts";
import type { Translate } from "../i18n/translator.ts";
import type { AuthContext, Authenticator } from "../modules/auth/auth.context.ts";
import type { RealtimeHub } from "../modules/realtime/realtime-hub.ts";
import type { DeviceWriter } from "../modules/settings/device-writer.ts";

/** One registered method and path with what it requires of its caller. */
export interface RouteEntry {
  method: string;
  url: string;
  access: RouteAccess | undefined;
  contract: RouteContract | undefined;
}

declare module "fastify" {
  interface FastifyRequest {
    /** The caller's language, from Accept-Language. */
    locale: Locale;
    /** Translates into the caller's language. */
    t: Translate;
    /** The signed-in caller once the route has authenticated it (null: anonymous or not yet). */
    caller: AuthContext | null;
    /** A change request's operation-log line while it runs (modules/logs/audit.hook.ts); null for reads. */
    audit: AuditScope | null;
    /** When an audited request arrived (performance.now()), for its duration. */
    auditStartedAt: number;
  }
  interface FastifyContextConfig {
    /** What the route requires of its caller; every route has one (the route audit checks). */
    access?: RouteAccess;
    contract?: RouteContract;
  }
  interface FastifyInstance {
    auth: Authenticator;
    /** Live pushes to the consoles (STOMP gateway at /act/ws): publish, register authorisers. */
    realtime: RealtimeHub;
    /** Validate every answer against its contract (on in tests). */
    checkResponses: boolean;
    /** Every route registered, for the route audit. */
    routeTable: readonly RouteEntry[];
    /** Sends and records device settings and commands; the grid's control applier writes through it too. */
    deviceWriter: DeviceWriter;
  }
}
