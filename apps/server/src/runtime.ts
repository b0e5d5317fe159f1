import { hostname } from "node:os";
import { PRODUCT, setPhoneDefaultCountry } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import { pino } from "pino";
import { type AppDeps, buildApp } from "./app.ts";
import { startBrokerSessions } from "./cluster/broker-sessions.ts";
import { consoleJobs, DEFAULT_CONSOLE_JOB_TIMES, energyRecoveryTimes } from "./cluster/console-jobs.ts";
import { type JobStart, startLeasedJobs } from "./cluster/leased-jobs.ts";
import { openClusterBus } from "./cluster/open-bus.ts";
import type { Config } from "./config/config.ts";
import { fieldCipherFrom } from "./crypto/field-key.ts";
import { auditedDb } from "./db/audited-db.ts";
import type { Db } from "./db/db.ts";
import { migrate } from "./db/migrate.ts";
import { openDatabase } from "./db/open.ts";
import { openFileStore } from "./files/open-file-store.ts";
import { createTranslator } from "./i18n/translator.ts";
import { configurePasswordHashing } from "./modules/auth/password.ts";
import { type FaultServices, startFaults } from "./modules/faults/faults.runtime.ts";
import { createControlApplier } from "./modules/grid/control-applier.ts";
import { createControlDelivery } from "./modules/grid/control-delivery.ts";
import { type GridClient, startGridClient } from "./modules/grid/grid-client.ts";
import { loadGridCredentials } from "./modules/grid/grid-credentials.ts";
import { createGridReminders } from "./modules/grid/grid-reminders.ts";
import { createMessagePublisher } from "./modules/messages/message-publisher.ts";
import { createOtaEngine, type OtaEngine } from "./modules/ota/ota.engine.ts";
import { clusterHub } from "./modules/realtime/cluster-hub.ts";
import { createRealtimeHub, type RealtimeHub } from "./modules/realtime/realtime-hub.ts";
import { createHealthReminders } from "./modules/system/health-reminders.ts";
import { DEVICE_CHANGED_CHANNEL } from "./modules/telemetry/device-directory.ts";
import { createIngestWatchdog, type IngestWatchdog } from "./modules/telemetry/ingest-watchdog.ts";
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
  /** Alarm detection and notification. */
  faults: FaultServices;
  /** Live pushes to the consoles; the same hub the gateway at /act/ws serves (ingest publishes here). */
  realtime: RealtimeHub;
  ota: OtaEngine;
  /**
   * The utility (IEEE 2030.5) client while this process holds the `grid` job's lease (one process
   * of the console runs it); null otherwise, and always null unless ESS_GRID_DCAP_URL is set.
   */
  readonly grid: GridClient | null;
  close(): Promise<void>;
}

/**
 * Starts the whole server in order — database and migrations, seed, broker, HTTP — and returns
 * a handle whose close() undoes it in reverse. Anything that fails on the way closes what was
 * already open before the error propagates.
 */
/** This process's client id on an external broker; its persistent session is keyed by it. */
const brokerClientId = (config: Config) => config.MQTT_CLIENT_ID ?? `ess-${config.MQTT_SHARED_GROUP}-${hostname()}`.slice(0, 128);

export async function startRuntime(
  config: Config,
  options: Pick<AppDeps, "extend" | "smsSender" | "socialProviders"> & {
    /** Wraps the database every part of the server uses (tests put a failing layer here). */
    wrapDb?: (db: Db) => Db;
  } = {},
): Promise<Runtime> {
  const closers: (() => Promise<unknown>)[] = [];
  const closeAll = async () => {
    for (const close of closers.reverse()) await close().catch(() => {});
  };
  // Refused before anything opens: a production start without its field key says so in one line.
  const fieldCipher = fieldCipherFrom(config);
  // The same for the grid connection's certificate: unreadable, or not matching its key.
  const gridCredentials = config.ESS_GRID_DCAP_URL ? loadGridCredentials(config) : null;
  try {
    const opened = await openDatabase(config);
    closers.push(() => opened.close());
    // One audited database for every part: a change request's writes through any of them carry its log line.
    const db = auditedDb(options.wrapDb?.(opened) ?? opened);
    await migrate(db);
    configurePasswordHashing({ concurrency: config.ESS_PASSWORD_HASH_CONCURRENCY, queue: config.ESS_PASSWORD_HASH_QUEUE });
    setPhoneDefaultCountry(config.ESS_PHONE_COUNTRY);
    const seed = await seedFoundation(db, config.ESS_ADMIN_PASSWORD);
    const translator = await createTranslator();
    await seedIdentity(db, PRODUCT.defaultTenantId, translator);
    const metrics = createMetrics();
    const log = pino({ level: config.LOG_LEVEL, base: { pid: process.pid } });
    // Hashes share libuv's threads with file, DNS and zlib work; all of them hashing starves those.
    const uvThreads = Number(process.env.UV_THREADPOOL_SIZE) || 4;
    if (config.ESS_PASSWORD_HASH_CONCURRENCY >= uvThreads) {
      log.warn(
        { hashConcurrency: config.ESS_PASSWORD_HASH_CONCURRENCY, uvThreads },
        "ESS_PASSWORD_HASH_CONCURRENCY leaves no libuv thread for file and DNS work during a sign-in flood; raise UV_THREADPOOL_SIZE",
      );
    }
    const router = createDeviceRouter({ onMessage: (leaf) => metrics.mqttMessages.inc({ kind: leaf }) });

    // Events between the console's processes; refuses a configuration that cannot share a database.
    const cluster = await openClusterBus(config, opened, log, metrics);
    closers.push(() => cluster.close());
    // One hub for the process: the gateway serves it, and modules outside HTTP (ingest) publish to
    // it; pushes reach the consoles of every process. Reminders decided per subscriber (alarms,
    // health) go to this process's own subscribers, from events every process hears (`local`).
    const local = createRealtimeHub();
    const shared = clusterHub(local, cluster);
    closers.push(async () => shared.stop());
    const realtime = shared.hub;

    let embedded: EmbeddedBroker | null = null;
    let bus: MqttBus;
    let brokerUrl: string;
    // External broker only: the console can be connected and still hear nothing.
    let watchdog: IngestWatchdog | null = null;
    if (config.MQTT_URL) {
      brokerUrl = config.MQTT_URL;
      const clientId = brokerClientId(config);
      const connected = await connectBus({
        url: config.MQTT_URL,
        username: config.MQTT_USERNAME,
        password: config.MQTT_PASSWORD,
        clientId,
        connectTimeoutMs: config.MQTT_CONNECT_TIMEOUT_MS,
        sharedGroup: config.MQTT_SHARED_GROUP,
        persistentSession: true,
        sessionExpiryS: config.MQTT_SESSION_EXPIRY_S,
        onResubscribed: (reason, error) => {
          metrics.mqttResubscriptions.inc({ reason, outcome: error ? "failed" : "ok" });
          if (error) log.warn({ err: error, reason }, "MQTT subscriptions not made again; tried again later");
          else if (reason === "reconnect") log.info("MQTT broker connection back; subscriptions made again");
          if (reason === "reconnect") watchdog?.reconnected();
        },
        onDelivered: ({ shared, retained }) => {
          if (shared && !retained) watchdog?.heard();
        },
      });
      bus = connected;
      watchdog = createIngestWatchdog(
        {
          db,
          bus: connected,
          metrics,
          log,
          onEvent: createHealthReminders({ hub: local, t: translator("en-US"), client: clientId, cluster }),
        },
        { stallMs: config.ESS_INGEST_STALL_S * 1000 },
      );
    } else {
      const { authority, service } = createBrokerAuthority(db);
      embedded = await startEmbeddedBroker({
        host: config.HOST,
        port: config.MQTT_PORT,
        authority,
        inbox: router.inbox,
        connectTimeoutMs: config.ESS_BROKER_CONNECT_TIMEOUT_MS,
        keepaliveMaxS: config.ESS_BROKER_KEEPALIVE_MAX_S,
      }).catch((error) => {
        if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") {
          throw new PortInUseError(
            `MQTT port ${config.MQTT_PORT} on ${config.HOST} is already in use; stop the other program or set MQTT_PORT.`,
          );
        }
        throw error;
      });
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
    closers.push(async () => watchdog?.stop());
    const listening = watchdog;
    const telemetry = await startTelemetry(
      {
        db,
        bus,
        router,
        metrics,
        log,
        ...(listening ? { listening: { resubscribedAt: () => listening.resubscribedAt() } } : {}),
      },
      {
        offlineAfterS: config.ESS_DEVICE_OFFLINE_AFTER_S,
        pageReadTimeoutMs: config.ESS_PAGE_READ_TIMEOUT_MS,
        retentionDays: config.ESS_TELEMETRY_RETENTION_DAYS,
        rollupMs: config.ESS_ENERGY_ROLLUP_MS,
        identityReadMs: config.ESS_IDENTITY_READ_MS,
        writers: config.ESS_INGEST_WRITERS,
      },
    );
    closers.push(() => telemetry.stop());
    if (config.MQTT_URL) {
      // After telemetry: a gone process's session is drained into this process's handlers.
      const sessions = startBrokerSessions({
        db,
        bus,
        clientId: brokerClientId(config),
        ttlMs: config.ESS_JOB_LEASE_TTL_MS,
        log: log.child({ module: "lease" }),
        metrics,
      });
      closers.push(() => sessions.stop());
    }
    cluster.listen(DEVICE_CHANGED_CHANNEL, (sn) => telemetry.services.directory.forget(sn));
    cluster.onGap(() => telemetry.services.directory.clear());
    const livePush = startLivePush({ db, hub: realtime, events: telemetry.services.events });
    closers.push(async () => livePush.stop());
    const faults = await startFaults(
      { db, hub: local, events: telemetry.services.events, log, translator, metrics, cluster },
      {
        clearHoldS: config.ESS_ALARM_CLEAR_HOLD_S,
        stormDevices: config.ESS_ALARM_STORM_DEVICES,
        stormWindowS: config.ESS_ALARM_STORM_WINDOW_S,
        recoveryS: config.ESS_ALARM_RECOVERY_S,
      },
    );
    closers.push(() => faults.stop());
    // Devices fetch packages from the address the console listens on unless told another.
    let publicUrl = config.ESS_PUBLIC_URL ?? "";
    const ota = createOtaEngine({
      db,
      bus,
      log,
      baseUrl: () => publicUrl,
      options: {
        tickMs: config.ESS_OTA_TICK_MS,
        confirmTimeoutS: config.ESS_OTA_CONFIRM_TIMEOUT_S,
        progressTimeoutS: config.ESS_OTA_PROGRESS_TIMEOUT_S,
        offlineGiveUpS: config.ESS_OTA_OFFLINE_GIVEUP_S,
      },
      restoreOnline: (ids) => telemetry.services.presence.restoreAfterUpgrade(ids),
    });
    telemetry.services.upgrades.progress = ota.progress;
    telemetry.services.events.on("status", (ids, status) => {
      if (status === 0)
        void ota.devicesOffline(ids).catch((error) => log.error({ err: error }, "OTA: offline devices not handled"));
    });
    if (config.MQTT_URL) await router.attach(bus);
    router.open();
    watchdog?.start();

    const files = await openFileStore(config, db, log);
    closers.push(async () => files.close?.());
    const app = await buildApp({
      realtime,
      cluster,
      db,
      translator,
      broker: { isConnected: () => bus.isConnected(), ingestStalled: () => watchdog?.stalled() ?? false },
      brokerWebSocket: embedded?.handleStream,
      disconnectDevice: embedded?.disconnectDevice,
      telemetry: telemetry.services,
      faults: faults.services,
      files,
      fieldCipher,
      ota,
      accessTokenTtlS: config.ESS_ACCESS_TOKEN_TTL_S,
      refreshTokenTtlS: config.ESS_REFRESH_TOKEN_TTL_S,
      sessionCacheS: config.ESS_SESSION_CACHE_S,
      deviceWrites: {
        queueTtlMs: config.ESS_WRITE_QUEUE_TTL_S * 1000,
        bulkConcurrency: config.ESS_BULK_CONCURRENCY,
        sweepMs: config.ESS_WRITE_SWEEP_MS,
        selfCheckTimeoutS: config.ESS_SELF_CHECK_TIMEOUT_S,
      },
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
      connectionBounds: {
        headersTimeoutMs: config.ESS_HTTP_HEADERS_TIMEOUT_MS,
        bodyTimeoutMs: config.ESS_HTTP_BODY_TIMEOUT_MS,
        uploadTimeoutMs: config.ESS_HTTP_UPLOAD_TIMEOUT_MS,
        keepAliveTimeoutMs: config.ESS_HTTP_KEEPALIVE_TIMEOUT_MS,
        idleTimeoutMs: config.ESS_HTTP_IDLE_TIMEOUT_MS,
        wsPingMs: config.ESS_WS_PING_MS,
      },
      realtimeConnectTimeoutMs: config.ESS_REALTIME_CONNECT_TIMEOUT_MS,
      extend: options.extend,
      ...(options.smsSender ? { smsSender: options.smsSender } : {}),
      ...(options.socialProviders ? { socialProviders: options.socialProviders } : {}),
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
    const url = `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${port}/`;
    publicUrl ||= url;
    // Scheduled messages: published by whichever process ticks first once their time has come
    // (each message is claimed by one conditional UPDATE), so every process may tick.
    const messages = createMessagePublisher({ db, hub: realtime, log });
    void messages.tick();
    messages.start();
    closers.push(() => messages.stop());
    const leaseLog = log.child({ module: "lease" });
    const jobs: Record<string, JobStart> = consoleJobs(
      { ...telemetry.services, ota, detector: faults.services.detector },
      { ...DEFAULT_CONSOLE_JOB_TIMES, ...energyRecoveryTimes(config.ESS_ENERGY_ROLLUP_MS) },
      leaseLog,
    );
    // Every process hears of a PIN mismatch, whichever runs the grid client.
    const onPinMismatch = createGridReminders({ hub: local, t: translator("en-US"), cluster });
    // The grid client runs in one process of the console too: two would poll the utility twice.
    if (gridCredentials && config.ESS_GRID_DCAP_URL) {
      const dcapUrl = config.ESS_GRID_DCAP_URL;
      const applier = createControlApplier({
        db,
        writer: app.deviceWriter,
        requests: telemetry.services.requests,
        queueTtlMs: config.ESS_WRITE_QUEUE_TTL_S * 1000,
      });
      const controls = createControlDelivery({
        apply: applier.applyEffectiveControl,
        state: applier.controlState,
        log: log.child({ module: "grid" }),
      });
      closers.push(() => controls.close());
      // Fenced: a process held up past its lease must not record, apply or answer a control twice.
      jobs.grid = (signal, token) =>
        startGridClient({
          db,
          credentials: gridCredentials,
          dcapUrl,
          pen: config.ESS_GRID_PEN,
          scope: config.ESS_GRID_SITES,
          defaultPin: config.ESS_GRID_PIN,
          log: log.child({ module: "grid" }),
          metrics,
          onPinMismatch,
          // Each site's control in force reaches its device through the durable write path.
          onEffectiveControl: controls.deliver,
          fence: { job: "grid", token },
          signal,
        });
    }
    const leased = startLeasedJobs({ db, log: leaseLog, metrics, ttlMs: config.ESS_JOB_LEASE_TTL_MS }, jobs);
    closers.push(() => leased.stop());
    // A lone process (PGlite, or the first of a console) has every job running once started.
    await leased.firstTry;
    return {
      app,
      db,
      url,
      brokerUrl,
      seed,
      telemetry: telemetry.services,
      faults: faults.services,
      realtime,
      ota,
      get grid() {
        return (leased.leases.get("grid")?.current() as GridClient | null | undefined) ?? null;
      },
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
