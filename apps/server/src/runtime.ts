import { hostname } from "node:os";
import { PRODUCT } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import { pino } from "pino";
import { type AppDeps, buildApp } from "./app.ts";
import type { Config } from "./config/config.ts";
import type { Db } from "./db/db.ts";
import { migrate } from "./db/migrate.ts";
import { openDatabase } from "./db/open.ts";
import { createTranslator } from "./i18n/translator.ts";
import { createRealtimeHub, type RealtimeHub } from "./modules/realtime/realtime-hub.ts";
import { startLivePush } from "./modules/telemetry/live-push.ts";
import { startTelemetry, type TelemetryServices } from "./modules/telemetry/telemetry.runtime.ts";
import { createBrokerAuthority } from "./mqtt/broker-authority.ts";
import { connectBus, type MqttBus } from "./mqtt/bus.ts";
import { createDeviceRouter } from "./mqtt/device-router.ts";
import { type EmbeddedBroker, startEmbeddedBroker } from "./mqtt/embedded-broker.ts";
import { createMetrics } from "./observability/metrics.ts";
import { type SeedOutcome, seedFoundation } from "./seed/foundation.seed.ts";
import { seedIdentity } from "./seed/identity.seed.ts";

export class PortInUseError extends Error {}

export interface Runtime {
  app: FastifyInstance;
  db: Db;
  url: string;
  /** The broker devices connect to (embedded or external). */
  brokerUrl: string;
  seed: SeedOutcome;
  telemetry: TelemetryServices;
  /** Live pushes to the consoles; the same hub the gateway at /act/ws serves (ingest publishes here). */
  realtime: RealtimeHub;
  close(): Promise<void>;
}

/**
 * Starts the whole server in order — database and migrations, seed, broker, HTTP — and returns
 * a handle whose close() undoes it in reverse. Anything that fails on the way closes what was
 * already open before the error propagates.
 */
export async function startRuntime(config: Config, options: { extend?: AppDeps["extend"] } = {}): Promise<Runtime> {
  const closers: (() => Promise<unknown>)[] = [];
  const closeAll = async () => {
    for (const close of closers.reverse()) await close().catch(() => {});
  };
  try {
    const db = await openDatabase(config);
    closers.push(() => db.close());
    await migrate(db);
    const seed = await seedFoundation(db, config.ESS_ADMIN_PASSWORD);
    const translator = await createTranslator();
    await seedIdentity(db, PRODUCT.defaultTenantId, translator);
    const metrics = createMetrics();
    const log = pino({ level: config.LOG_LEVEL, base: { pid: process.pid } });
    const router = createDeviceRouter({ onMessage: (leaf) => metrics.mqttMessages.inc({ kind: leaf }) });

    let embedded: EmbeddedBroker | null = null;
    let bus: MqttBus;
    let brokerUrl: string;
    if (config.MQTT_URL) {
      brokerUrl = config.MQTT_URL;
      bus = await connectBus({
        url: config.MQTT_URL,
        username: config.MQTT_USERNAME,
        password: config.MQTT_PASSWORD,
        clientId: config.MQTT_CLIENT_ID ?? `ess-${config.MQTT_SHARED_GROUP}-${hostname()}`.slice(0, 128),
        connectTimeoutMs: config.MQTT_CONNECT_TIMEOUT_MS,
        sharedGroup: config.MQTT_SHARED_GROUP,
        persistentSession: true,
        sessionExpiryS: config.MQTT_SESSION_EXPIRY_S,
      });
    } else {
      const { authority, service } = createBrokerAuthority(db);
      embedded = await startEmbeddedBroker({ host: config.HOST, port: config.MQTT_PORT, authority, inbox: router.inbox }).catch(
        (error) => {
          if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") {
            throw new PortInUseError(
              `MQTT port ${config.MQTT_PORT} on ${config.HOST} is already in use; stop the other program or set MQTT_PORT.`,
            );
          }
          throw error;
        },
      );
      closers.push(() => (embedded as EmbeddedBroker).close());
      brokerUrl = `mqtt://${config.HOST}:${embedded.port}`;
      bus = await connectBus({
        url: brokerUrl,
        ...service,
        clientId: `ess-server-${process.pid}`,
        connectTimeoutMs: config.MQTT_CONNECT_TIMEOUT_MS,
      });
    }
    closers.push(() => bus.close());
    // One hub for the process: the gateway serves it, and modules outside HTTP (ingest) publish to it.
    const realtime = createRealtimeHub();
    const telemetry = await startTelemetry(
      { db, bus, router, metrics, log },
      {
        offlineAfterS: config.ESS_DEVICE_OFFLINE_AFTER_S,
        pageReadTimeoutMs: config.ESS_PAGE_READ_TIMEOUT_MS,
        retentionDays: config.ESS_TELEMETRY_RETENTION_DAYS,
      },
    );
    closers.push(() => telemetry.stop());
    const livePush = startLivePush({ db, hub: realtime, events: telemetry.services.events });
    closers.push(async () => livePush.stop());
    if (config.MQTT_URL) await router.attach(bus);
    router.open();

    const app = await buildApp({
      realtime,
      db,
      translator,
      broker: bus,
      brokerWebSocket: embedded?.handleStream,
      telemetry: telemetry.services,
      accessTokenTtlS: config.ESS_ACCESS_TOKEN_TTL_S,
      refreshTokenTtlS: config.ESS_REFRESH_TOKEN_TTL_S,
      sessionCacheS: config.ESS_SESSION_CACHE_S,
      webDist: config.ESS_WEB_DIST,
      metrics,
      logger: {
        level: config.LOG_LEVEL,
        redact: { paths: ["req.headers.authorization", "req.body.password"], censor: "***" },
      },
      checkResponses: config.NODE_ENV === "test",
      signIn: { captcha: config.ESS_CAPTCHA === "on" },
      demoMode: config.ESS_DEMO_MODE === "on",
      repeatGuardMs: config.ESS_REPEAT_GUARD_MS,
      extend: options.extend,
    });
    closers.push(() => app.close());
    try {
      await app.listen({ host: config.HOST, port: config.PORT });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") {
        throw new PortInUseError(`Port ${config.PORT} on ${config.HOST} is already in use; stop the other program or set PORT.`);
      }
      throw error;
    }
    const address = app.server.address();
    const port = typeof address === "object" && address ? address.port : config.PORT;
    const host = config.HOST.includes(":") ? `[${config.HOST}]` : config.HOST;
    return {
      app,
      db,
      url: `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${port}/`,
      brokerUrl,
      seed,
      telemetry: telemetry.services,
      realtime,
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
