import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { API } from "@ess/contracts";
import type { Locale } from "@ess/domain";
import websocket from "@fastify/websocket";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { createWebSocketStream } from "ws";
import { createFieldCipher, type FieldCipher } from "./crypto/field-cipher.ts";
import "./http/augment.ts";
import type { ClusterBus } from "./cluster/bus.ts";
import { auditedDb } from "./db/audited-db.ts";
import type { Db } from "./db/db.ts";
import { createFolderStore, type FileStore } from "./files/file-store.ts";
import type { RouteEntry } from "./http/augment.ts";
import {
  boundedServerOptions,
  type ConnectionBounds,
  DEFAULT_CONNECTION_BOUNDS,
  installConnectionBounds,
} from "./http/connection-bounds.ts";
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
import { registerAppContentRoutes } from "./modules/content/app-content.routes.ts";
import { registerArticleRoutes } from "./modules/content/article.routes.ts";
import { registerBannerRoutes } from "./modules/content/banner.routes.ts";
import { registerFaqRoutes } from "./modules/content/faq.routes.ts";
import { registerRegionRoutes } from "./modules/content/region.routes.ts";
import { registerBoardRoutes } from "./modules/devices/board.routes.ts";
import { registerDeviceRoutes } from "./modules/devices/device.routes.ts";
import { registerStatisticsRoutes } from "./modules/devices/statistics.routes.ts";
import { registerFaultRoutes } from "./modules/faults/fault.routes.ts";
import type { FaultServices } from "./modules/faults/faults.runtime.ts";
import { registerFeedbackRoutes } from "./modules/feedback/feedback.routes.ts";
import { registerGeneratorRoutes } from "./modules/generator/generator.routes.ts";
import { readOwnValuesOnReturn } from "./modules/grid/control-applier.ts";
import { registerGridCentreRoutes } from "./modules/grid-centre/grid-centre.routes.ts";
import { installAuditLog } from "./modules/logs/audit.hook.ts";
import { registerErrorLogRoutes } from "./modules/logs/error-log.routes.ts";
import { registerLogRoutes } from "./modules/logs/log.routes.ts";
import { registerMediaRoutes } from "./modules/media/media.routes.ts";
import { registerMenuRoutes } from "./modules/menus/menu.routes.ts";
import { registerMessageRoutes } from "./modules/messages/messages.routes.ts";
import { registerModeRoutes } from "./modules/modes/modes.routes.ts";
import { registerFirmwareRoutes } from "./modules/ota/firmware.routes.ts";
import type { OtaEngine } from "./modules/ota/ota.engine.ts";
import { registerOtaRoutes } from "./modules/ota/ota.routes.ts";
import { registerProfileRoutes } from "./modules/profile/profile.routes.ts";
import { registerRealtime } from "./modules/realtime/realtime.routes.ts";
import { createRealtimeHub, type RealtimeHub } from "./modules/realtime/realtime-hub.ts";
import { registerReferralRoutes } from "./modules/referral/referral.routes.ts";
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
  /** Events between the console's processes (sign-outs); this process alone when absent. */
  cluster?: ClusterBus;
  /** The live-push hub; made here unless the runtime shares one with other parts (ingest). */
  realtime?: RealtimeHub;
  webDist?: string | null;
  metrics?: Metrics;
  logger?: FastifyServerOptions["logger"];
  checkResponses?: boolean;
  /** Sign-in protection; `captcha: false` is ESS_CAPTCHA=off. */
  signIn?: Partial<SignInPolicy>;
  /** Offline queue, bulk pace and sweep of device writes, self-check timeout (ESS_WRITE_QUEUE_TTL_S, ESS_BULK_CONCURRENCY, ESS_WRITE_SWEEP_MS, ESS_SELF_CHECK_TIMEOUT_S). */
  deviceWrites?: Partial<DeviceWriterOptions & { selfCheckTimeoutS: number }>;
  /** ESS_DEMO_MODE. */
  demoMode?: boolean;
  /** ESS_REPEAT_GUARD_MS (default 1000). */
  repeatGuardMs?: number;
  /** Delivers SMS sign-in codes (default: the server log). */
  smsSender?: SmsSender;
  /** Social sign-in providers (none by default). */
  socialProviders?: readonly SocialProvider[];
  /** Uploaded files (ESS_FILE_STORE); a temporary folder when absent (tests). */
  files?: FileStore;
  /** Seals bank details at rest; a cipher of a random key when absent (tests). */
  fieldCipher?: FieldCipher;
  /** The OTA dispatcher; without it upgrades answer "unavailable". */
  ota?: OtaEngine | null;
  /** Time bounds of HTTP and WebSocket connections (ESS_HTTP_*_TIMEOUT_MS, ESS_WS_PING_MS). */
  connectionBounds?: Partial<ConnectionBounds>;
  /** Time a live-push client has to send its STOMP CONNECT (ESS_REALTIME_CONNECT_TIMEOUT_MS). */
  realtimeConnectTimeoutMs?: number;
  /** Registers extra routes before the app is sealed (tests). */
  extend?: (app: FastifyInstance) => void;
}

// Routes from plugins (docs, static files, sockets) are public by nature; everything else must
// declare its access through a contract, which the route audit test verifies.
const INFRASTRUCTURE_PREFIXES = ["/api/docs", "/mqtt", "/*", "/"];

export async function buildApp(given: AppDeps): Promise<FastifyInstance> {
  // Change requests write their operation-log line with their first change (db/audited-db.ts).
  const deps = { ...given, db: auditedDb(given.db) };
  const bounds = { ...DEFAULT_CONNECTION_BOUNDS, ...deps.connectionBounds };
  const app = Fastify({
    ...boundedServerOptions(bounds),
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
    // The console's files, one route each (@fastify/static marks them with their root folder).
    const staticFile = "rootPath" in config;
    if (!config.access && (staticFile || INFRASTRUCTURE_PREFIXES.some((p) => route.url === p || route.url.startsWith(`${p}/`)))) {
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
  installRequestGuards(app, { demoMode: deps.demoMode ?? false, repeatWindowMs: deps.repeatGuardMs ?? 1000, db: given.db });
  installAuditLog(app, deps.db);
  instrumentHttp(app, metrics);
  await registerOpenApi(app);
  await app.register(websocket, {
    options: {
      maxPayload: 1024 * 1024,
      handleProtocols: (offered) => ["mqtt", "v12.stomp", "v11.stomp", "v10.stomp"].find((p) => offered.has(p)) ?? false,
    },
  });
  installConnectionBounds(app, bounds, [API.firmware.upload.path, API.media.upload.path, API.media.appUpload.path]);

  const auth = createAuthService(deps.db, {
    accessTtlS: deps.accessTokenTtlS,
    refreshTtlS: deps.refreshTokenTtlS,
    sessionCacheS: deps.sessionCacheS ?? 0,
    ...(deps.cluster ? { cluster: deps.cluster } : {}),
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
  registerRealtime(app, {
    db: deps.db,
    hub: realtime,
    translator: deps.translator,
    metrics,
    connectTimeoutMs: deps.realtimeConnectTimeoutMs ?? 10_000,
  });
  registerTelemetryRoutes(app, { db: deps.db, requests: deps.telemetry?.requests ?? null });
  const writeOptions = {
    queueTtlMs: 86_400_000,
    bulkConcurrency: 20,
    sweepMs: 5000,
    selfCheckTimeoutS: 1800,
    ...deps.deviceWrites,
  };
  const writer = createDeviceWriter({
    db: deps.db,
    requests: deps.telemetry?.requests ?? null,
    hub: realtime,
    events: deps.telemetry?.events ?? null,
    log: app.log,
    options: writeOptions,
  });
  // A grid control that had to write blind (the device away) reads the device's own values on its return.
  writer.beforeFlush(readOwnValuesOnReturn({ db: deps.db, requests: deps.telemetry?.requests ?? null }));
  app.addHook("onClose", async () => writer.stop());
  app.decorate("deviceWriter", writer);
  registerDeviceSettingsRoutes(app, {
    db: deps.db,
    requests: deps.telemetry?.requests ?? null,
    writer,
    hub: realtime,
    queueTtlMs: writeOptions.queueTtlMs,
  });
  registerVisibilityRoutes(app, { db: deps.db });
  registerSelfCheckRoutes(app, {
    db: deps.db,
    writer,
    requests: deps.telemetry?.requests ?? null,
    timeoutS: writeOptions.selfCheckTimeoutS,
    sweepMs: writeOptions.sweepMs,
  });
  registerGeneratorRoutes(app, { db: deps.db, writer, queueTtlMs: writeOptions.queueTtlMs });
  registerModeRoutes(app, { db: deps.db });
  registerProfileRoutes(app, { db: deps.db });
  registerReferralRoutes(app, { db: deps.db, cipher: deps.fieldCipher ?? createFieldCipher(randomBytes(32)) });
  registerGridCentreRoutes(app, { db: deps.db });
  registerTariffRoutes(app, { db: deps.db });
  registerFaultRoutes(app, { db: deps.db, faults: deps.faults ?? null });
  registerDeviceRoutes(app, deps.db, deps.disconnectDevice);
  registerStatisticsRoutes(app, deps.db);
  registerBoardRoutes(app, deps.db);
  const files = deps.files ?? createFolderStore(join(tmpdir(), `ess-files-${process.pid}`));
  registerFirmwareRoutes(app, { db: deps.db, files });
  registerMediaRoutes(app, { db: deps.db, files });
  registerArticleRoutes(app, { db: deps.db });
  registerBannerRoutes(app, { db: deps.db });
  registerOtaRoutes(app, { db: deps.db, engine: deps.ota ?? null });
  registerFaqRoutes(app, { db: deps.db });
  registerRegionRoutes(app, { db: deps.db });
  registerAppContentRoutes(app, { db: deps.db });
  registerMessageRoutes(app, { db: deps.db, hub: realtime });
  registerFeedbackRoutes(app, { db: deps.db });

  if (deps.brokerWebSocket) {
    const feed = deps.brokerWebSocket;
    app.get("/mqtt", { websocket: true, schema: { hide: true } }, (socket) => feed(createWebSocketStream(socket)));
  }
  deps.extend?.(app);
  await registerStaticWeb(app, deps.webDist === undefined ? DEFAULT_WEB_DIST : deps.webDist);
  return app;
}
