import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Locale } from "@ess/domain";
import websocket from "@fastify/websocket";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { createWebSocketStream } from "ws";
import "./http/augment.ts";
import type { Db } from "./db/db.ts";
import type { RouteEntry } from "./http/augment.ts";
import { installErrorHandling } from "./http/error-handler.ts";
import { registerOpenApi } from "./http/openapi.ts";
import { installRequestGuards } from "./http/request-guards.ts";
import { registerStaticWeb } from "./http/static-web.ts";
import { localeOf, type Translate } from "./i18n/translator.ts";
import { registerAuthRoutes } from "./modules/auth/auth.routes.ts";
import { createAuthService } from "./modules/auth/auth.service.ts";
import { createChallenges } from "./modules/auth/challenges.ts";
import { registerMobileRoutes } from "./modules/auth/mobile.routes.ts";
import { logSmsSender, type SmsSender, type SocialProvider } from "./modules/auth/mobile-sign-in.ts";
import { createRateCounter } from "./modules/auth/rate-counter.ts";
import { createSignInGuard, DEFAULT_SIGN_IN_POLICY, type SignInPolicy } from "./modules/auth/sign-in-guard.ts";
import { registerCancellationRoutes } from "./modules/cancellation/cancellation.routes.ts";
import { registerCaptchaRoutes } from "./modules/captcha/captcha.routes.ts";
import { registerEndUserRoutes } from "./modules/channel/enduser.routes.ts";
import { registerOrgRoutes } from "./modules/channel/org.routes.ts";
import { registerBoardRoutes } from "./modules/devices/board.routes.ts";
import { registerDeviceRoutes } from "./modules/devices/device.routes.ts";
import { registerStatisticsRoutes } from "./modules/devices/statistics.routes.ts";
import { registerFaultRoutes } from "./modules/faults/fault.routes.ts";
import type { FaultServices } from "./modules/faults/faults.runtime.ts";
import { registerGeneratorRoutes } from "./modules/generator/generator.routes.ts";
import { installAuditLog } from "./modules/logs/audit.hook.ts";
import { registerErrorLogRoutes } from "./modules/logs/error-log.routes.ts";
import { registerLogRoutes } from "./modules/logs/log.routes.ts";
import { registerMenuRoutes } from "./modules/menus/menu.routes.ts";
import { registerModeRoutes } from "./modules/modes/modes.routes.ts";
import { createFileStore, type FileStore } from "./modules/ota/file-store.ts";
import { registerFirmwareRoutes } from "./modules/ota/firmware.routes.ts";
import type { OtaEngine } from "./modules/ota/ota.engine.ts";
import { registerOtaRoutes } from "./modules/ota/ota.routes.ts";
import { registerRealtime } from "./modules/realtime/realtime.routes.ts";
import { createRealtimeHub, type RealtimeHub } from "./modules/realtime/realtime-hub.ts";
import { registerRoleRoutes } from "./modules/roles/role.routes.ts";
import { registerDeviceSettingsRoutes } from "./modules/settings/device-settings.routes.ts";
import { createDeviceWriter, type DeviceWriterOptions } from "./modules/settings/device-writer.ts";
import { registerSelfCheckRoutes } from "./modules/settings/self-check.ts";
import { registerVisibilityRoutes } from "./modules/settings/visibility.ts";
import { type ReadinessProbe, registerSystemRoutes } from "./modules/system/system.routes.ts";
import { registerTariffRoutes } from "./modules/tariffs/tariffs.routes.ts";
import { registerTelemetryRoutes } from "./modules/telemetry/telemetry.routes.ts";
import type { TelemetryServices } from "./modules/telemetry/telemetry.runtime.ts";
import { registerUserRoutes } from "./modules/users/user.routes.ts";
import { createMetrics, instrumentHttp, type Metrics } from "./observability/metrics.ts";

export const DEFAULT_WEB_DIST = fileURLToPath(new URL("../../web/dist/", import.meta.url));

export interface AppDeps {
  db: Db;
  translator: (locale: Locale) => Translate;
  broker: ReadinessProbe;
  /** Feeds MQTT-over-WebSocket connections at /mqtt to the embedded broker, when there is one. */
  brokerWebSocket?: ((stream: import("node:stream").Duplex) => void) | undefined;
  /** Ends a device's open connection to the embedded broker (after its secret is reset), when there is one. */
  disconnectDevice?: ((sn: string) => void) | undefined;
  /** The device link (ingest, presence, requests); without it page reads answer "unavailable". */
  telemetry?: TelemetryServices | undefined;
  /** Alarm detection (absent in HTTP-only tests: the fault routes then work on stored data alone). */
  faults?: FaultServices | undefined;
  accessTokenTtlS: number;
  refreshTokenTtlS: number;
  sessionCacheS?: number;
  /** The live-push hub; made here unless the runtime shares one with other parts (ingest). */
  realtime?: RealtimeHub;
  webDist?: string | null;
  metrics?: Metrics;
  logger?: FastifyServerOptions["logger"];
  checkResponses?: boolean;
  /** Sign-in protection; `captcha: false` is ESS_CAPTCHA=off. */
  signIn?: Partial<SignInPolicy>;
  /** Offline queue and bulk pace of device writes (ESS_WRITE_QUEUE_TTL_S, ESS_BULK_CONCURRENCY). */
  deviceWrites?: Partial<DeviceWriterOptions>;
  /** ESS_DEMO_MODE. */
  demoMode?: boolean;
  /** ESS_REPEAT_GUARD_MS (default 1000). */
  repeatGuardMs?: number;
  /** Delivers SMS sign-in codes (default: the server log). */
  smsSender?: SmsSender;
  /** Social sign-in providers (none by default). */
  socialProviders?: readonly SocialProvider[];
  /** Uploaded files (DATA_DIR/files); a temporary folder when absent (tests). */
  files?: FileStore;
  /** The OTA dispatcher; without it upgrades answer "unavailable". */
  ota?: OtaEngine | null;
  /** Registers extra routes before the app is sealed (tests). */
  extend?: (app: FastifyInstance) => void;
}

// Routes from plugins (docs, static files, sockets) are public by nature; everything else must
// declare its access through a contract, which the route audit test verifies.
const INFRASTRUCTURE_PREFIXES = ["/api/docs", "/mqtt", "/*", "/"];

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? false,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: "idle",
    return503OnClosing: true,
    requestIdHeader: "x-request-id",
    ajv: { customOptions: { coerceTypes: false } },
  });

  const metrics = deps.metrics ?? createMetrics();
  app.decorate("checkResponses", deps.checkResponses ?? false);
  app.decorateRequest("locale", "zh-CN");
  app.decorateRequest("t", null as unknown as Translate);
  app.decorateRequest("caller", null);
  app.addHook("onRequest", async (request) => {
    request.locale = localeOf(request.headers["accept-language"]);
    request.t = deps.translator(request.locale);
  });
  const routeTable: RouteEntry[] = [];
  app.decorate("routeTable", routeTable);
  app.addHook("onRoute", (route) => {
    const config = route.config ?? {};
    if (!config.access && INFRASTRUCTURE_PREFIXES.some((p) => route.url === p || route.url.startsWith(`${p}/`))) {
      route.config = { ...config, access: { public: true } };
    }
    for (const method of [route.method].flat()) {
      routeTable.push({ method, url: route.url, access: route.config?.access, contract: route.config?.contract });
    }
  });
  // Contracts validate with zod inside the route binder; the JSON schemas are for the docs only.
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.setSerializerCompiler(() => (data) => (typeof data === "string" ? data : JSON.stringify(data)));

  installErrorHandling(app);
  installRequestGuards(app, { demoMode: deps.demoMode ?? false, repeatWindowMs: deps.repeatGuardMs ?? 1000 });
  installAuditLog(app, deps.db);
  instrumentHttp(app, metrics);
  await registerOpenApi(app);
  await app.register(websocket, {
    options: {
      maxPayload: 1024 * 1024,
      handleProtocols: (offered) => ["mqtt", "v12.stomp", "v11.stomp", "v10.stomp"].find((p) => offered.has(p)) ?? false,
    },
  });

  const auth = createAuthService(deps.db, {
    accessTtlS: deps.accessTokenTtlS,
    refreshTtlS: deps.refreshTokenTtlS,
    sessionCacheS: deps.sessionCacheS ?? 0,
  });
  app.decorate("auth", auth.authenticator);

  registerSystemRoutes(app, { db: deps.db, broker: deps.broker, metrics });
  const challenges = createChallenges(deps.db);
  const counter = createRateCounter(deps.db);
  const policy = { ...DEFAULT_SIGN_IN_POLICY, ...deps.signIn };
  if (!policy.captcha) app.log.warn("ESS_CAPTCHA=off: sign-in accepts a password without captcha or slide verification");
  registerAuthRoutes(app, auth, createSignInGuard(deps.db, challenges, counter, policy));
  registerCaptchaRoutes(app, challenges, counter, policy.captcha);
  registerMobileRoutes(app, {
    db: deps.db,
    auth,
    challenges,
    counter,
    sms: deps.smsSender ?? logSmsSender(app.log),
    social: deps.socialProviders ?? [],
  });
  registerMenuRoutes(app, deps.db);
  registerOrgRoutes(app, deps.db);
  registerEndUserRoutes(app, deps.db, auth.forgetUser);
  registerUserRoutes(app, deps.db, auth);
  registerRoleRoutes(app, deps.db, auth);
  registerLogRoutes(app, deps.db);
  registerCancellationRoutes(app, deps.db, auth);
  registerErrorLogRoutes(app, deps.db);
  const realtime = deps.realtime ?? createRealtimeHub();
  app.decorate("realtime", realtime);
  registerRealtime(app, { db: deps.db, hub: realtime, translator: deps.translator, metrics });
  registerTelemetryRoutes(app, { db: deps.db, requests: deps.telemetry?.requests ?? null });
  const writeOptions = { queueTtlMs: 86_400_000, bulkConcurrency: 20, ...deps.deviceWrites };
  const writer = createDeviceWriter({
    db: deps.db,
    requests: deps.telemetry?.requests ?? null,
    hub: realtime,
    events: deps.telemetry?.events ?? null,
    log: app.log,
    options: writeOptions,
  });
  app.addHook("onClose", async () => writer.stop());
  registerDeviceSettingsRoutes(app, {
    db: deps.db,
    requests: deps.telemetry?.requests ?? null,
    writer,
    hub: realtime,
    queueTtlMs: writeOptions.queueTtlMs,
  });
  registerVisibilityRoutes(app, { db: deps.db });
  registerSelfCheckRoutes(app, { db: deps.db, writer, requests: deps.telemetry?.requests ?? null });
  registerGeneratorRoutes(app, { db: deps.db, writer, queueTtlMs: writeOptions.queueTtlMs });
  registerModeRoutes(app, { db: deps.db });
  registerTariffRoutes(app, { db: deps.db });
  registerFaultRoutes(app, { db: deps.db, faults: deps.faults ?? null });
  registerDeviceRoutes(app, deps.db, deps.disconnectDevice);
  registerStatisticsRoutes(app, deps.db);
  registerBoardRoutes(app, deps.db);
  registerFirmwareRoutes(app, { db: deps.db, files: deps.files ?? createFileStore(join(tmpdir(), `ess-files-${process.pid}`)) });
  registerOtaRoutes(app, { db: deps.db, engine: deps.ota ?? null });

  if (deps.brokerWebSocket) {
    const feed = deps.brokerWebSocket;
    app.get("/mqtt", { websocket: true, schema: { hide: true } }, (socket) => feed(createWebSocketStream(socket)));
  }
  deps.extend?.(app);
  await registerStaticWeb(app, deps.webDist === undefined ? DEFAULT_WEB_DIST : deps.webDist);
  return app;
}
