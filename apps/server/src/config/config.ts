import { availableParallelism } from "node:os";
import {
  GRID_IDENTITY_DEFAULTS,
  isAcceptablePassword,
  isPen,
  isPhoneCountry,
  isRegistrationPin,
  type PhoneCountry,
} from "@ess/domain";
import { z } from "zod";
import { parseFieldKey } from "../crypto/field-cipher.ts";

const port = (fallback: number) =>
  z.coerce
    .number({ message: "an integer port number from 0 to 65535" })
    .int("an integer port number from 0 to 65535")
    .min(0, "an integer port number from 0 to 65535")
    .max(65535, "an integer port number from 0 to 65535")
    .default(fallback);

const positiveInt = (fallback: number, what: string) =>
  z.coerce.number({ message: what }).int(what).positive(what).default(fallback);

const millis = (fallback: number, min: number, max: number) => {
  const what = `a whole number of milliseconds from ${min} to ${max}`;
  return z.coerce.number({ message: what }).int(what).min(min, what).max(max, what).default(fallback);
};

/**
 * Every setting of the server comes from one environment variable. Unset means the embedded
 * default; a wrong value stops the start with a line naming the variable and what it allows.
 */
export const configSchema = z.object({
  HOST: z.string().min(1, "a host name or address to listen on").default("127.0.0.1"),
  PORT: port(7072),
  /** Unset: embedded PGlite in DATA_DIR. Set: a PostgreSQL server. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/, "a postgres:// or postgresql:// connection URL")
    .optional(),
  DATABASE_POOL_SIZE: positiveInt(10, "a whole number of connections above 0"),
  DATABASE_CONNECT_TIMEOUT_MS: positiveInt(5000, "a whole number of milliseconds above 0"),
  DATA_DIR: z.string().min(1, "a folder path").default("./data"),
  /**
   * Where uploaded packages and images are kept: `folder` (DATA_DIR/files, this process only),
   * `database` (every process on the database serves them) or `s3` (a bucket every process
   * reaches, ESS_S3_*). Unset: `database` with DATABASE_URL, `folder` with the embedded database
   * (fileStoreKind).
   */
  ESS_FILE_STORE: z.enum(["folder", "database", "s3"], { message: "folder, database or s3" }).optional(),
  /** The bucket of ESS_FILE_STORE=s3 (required with it). */
  ESS_S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "a bucket name: 3 to 63 lower-case letters, digits, '.' or '-'")
    .optional(),
  /** An S3-compatible service (MinIO, Ceph…); unset: AWS S3 in ESS_S3_REGION. */
  ESS_S3_ENDPOINT: z
    .string()
    .regex(/^https?:\/\/\S+$/, "an http:// or https:// URL")
    .optional(),
  ESS_S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{1,32}$/, "a region name such as eu-central-1")
    .default("us-east-1"),
  /** Prepended to each object's name (its digest), e.g. `ess/files/`. */
  ESS_S3_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9!_.*'()/-]{0,200}$/, "up to 200 letters, digits, '/', '-', '_', '.' and the like")
    .default(""),
  /** Bucket in the path (`on`, what most S3-compatible services expect) or in the host name. Unset: on with ESS_S3_ENDPOINT. */
  ESS_S3_PATH_STYLE: z.enum(["on", "off"], { message: "on or off" }).optional(),
  /** Unset (both): the SDK's own chain — AWS_* variables, a shared profile, an instance or pod role. */
  ESS_S3_ACCESS_KEY_ID: z.string().min(1, "an access key id").optional(),
  ESS_S3_SECRET_ACCESS_KEY: z.string().min(1, "a secret access key").optional(),
  /** Unset: embedded broker on MQTT_PORT (and WebSocket at /mqtt). Set: an external broker. */
  MQTT_URL: z
    .string()
    .regex(/^(mqtts?|wss?):\/\/\S+$/, "an mqtt://, mqtts://, ws:// or wss:// URL")
    .optional(),
  MQTT_USERNAME: z.string().optional(),
  MQTT_PASSWORD: z.string().optional(),
  /**
   * The shared-subscription group of the console's processes on an external broker: they split
   * the devices' messages between them. A second console (or a test) on the same broker needs a
   * group of its own, or it receives only its share.
   */
  MQTT_SHARED_GROUP: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "1 to 64 letters, digits, '-' or '_'")
    .default("ess-server"),
  /**
   * The server's client id on an external broker; it must stay the same across restarts (its
   * session keeps the messages that arrive meanwhile) and differ between processes of a console.
   * Unset: ess-{MQTT_SHARED_GROUP}-{host name}.
   */
  MQTT_CLIENT_ID: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,128}$/, "1 to 128 letters, digits, '.', '-' or '_'")
    .optional(),
  /** How long an external broker keeps the server's session (and its queued messages) while it is away. */
  MQTT_SESSION_EXPIRY_S: positiveInt(604_800, "a whole number of seconds above 0"),
  MQTT_PORT: port(1884).refine((p) => p !== 1883, "a port other than 1883 (kept free for a system broker)"),
  MQTT_CONNECT_TIMEOUT_MS: positiveInt(10_000, "a whole number of milliseconds above 0"),
  ESS_ADMIN_PASSWORD: z.string().refine(isAcceptablePassword, "6 to 20 characters with both letters and digits").optional(),
  /**
   * The key that seals personal financial data (bank details) at rest: 32 random bytes as base64
   * or hex. Required in production; elsewhere a key is made once in DATA_DIR/field.key.
   */
  ESS_FIELD_KEY: z
    .string()
    .refine((v) => parseFieldKey(v) !== null, "32 bytes as base64 or 64 hex digits")
    .optional(),
  /** Keys used before a rotation, comma-separated: values sealed under them still open. */
  ESS_FIELD_KEY_PREVIOUS: z
    .string()
    .refine((v) => v.split(",").every((k) => parseFieldKey(k) !== null), "comma-separated keys of 32 bytes as base64 or hex")
    .optional(),
  ESS_ACCESS_TOKEN_TTL_S: positiveInt(43_200, "a whole number of seconds above 0"),
  ESS_REFRESH_TOKEN_TTL_S: positiveInt(2_592_000, "a whole number of seconds above 0"),
  /** Seconds a resolved session is reused before asking the database again (0 disables). */
  ESS_SESSION_CACHE_S: z.coerce
    .number({ message: "a whole number of seconds from 0 to 300" })
    .int("a whole number of seconds from 0 to 300")
    .min(0, "a whole number of seconds from 0 to 300")
    .max(300, "a whole number of seconds from 0 to 300")
    .default(10),
  /** Captcha and slide verification at sign-in; `off` for automated API clients and tests. */
  ESS_CAPTCHA: z.enum(["on", "off"], { message: "on or off" }).default("on"),
  /** Demo mode: changes answer 423, other people's data 479 (spec §8). */
  ESS_DEMO_MODE: z.enum(["on", "off"], { message: "on or off" }).default("off"),
  /** The country of phone numbers written without their country code (ISO 3166-1 alpha-2). */
  ESS_PHONE_COUNTRY: z
    .string()
    .refine(isPhoneCountry, "a country code such as CN, AU or IT")
    .default("CN")
    .transform((v) => v as PhoneCountry),
  /** An identical change repeated within this many ms answers 000 "too frequent" (0 disables). */
  ESS_REPEAT_GUARD_MS: z.coerce
    .number({ message: "a whole number of milliseconds from 0 to 60000" })
    .int("a whole number of milliseconds from 0 to 60000")
    .min(0, "a whole number of milliseconds from 0 to 60000")
    .max(60_000, "a whole number of milliseconds from 0 to 60000")
    .default(1000),
  ESS_SHUTDOWN_TIMEOUT_MS: positiveInt(4_000, "a whole number of milliseconds above 0"),
  ESS_WEB_DIST: z.string().optional(),
  /** Seconds without any message after which an online device counts as offline. */
  ESS_DEVICE_OFFLINE_AFTER_S: z.coerce
    .number({ message: "a whole number of seconds from 10 to 86400" })
    .int("a whole number of seconds from 10 to 86400")
    .min(10, "a whole number of seconds from 10 to 86400")
    .max(86_400, "a whole number of seconds from 10 to 86400")
    .default(90),
  /**
   * External broker: seconds without any device message, while devices are online, after which
   * the console takes its broker connection for stalled — counted, reported to administrators and
   * by /readyz, and healed by subscribing again. Above the longest gap a console process normally
   * sees: the devices' report interval × the console processes sharing the group ÷ devices online.
   */
  ESS_INGEST_STALL_S: z.coerce
    .number({ message: "a whole number of seconds from 1 to 3600" })
    .int("a whole number of seconds from 1 to 3600")
    .min(1, "a whole number of seconds from 1 to 3600")
    .max(3600, "a whole number of seconds from 1 to 3600")
    .default(60),
  /** How long a page read waits for the device's answer. */
  ESS_PAGE_READ_TIMEOUT_MS: z.coerce
    .number({ message: "a whole number of milliseconds from 500 to 60000" })
    .int("a whole number of milliseconds from 500 to 60000")
    .min(500, "a whole number of milliseconds from 500 to 60000")
    .max(60_000, "a whole number of milliseconds from 500 to 60000")
    .default(5000),
  /** How long a change for an offline device waits for it to return before it ends timed out. */
  ESS_WRITE_QUEUE_TTL_S: positiveInt(86_400, "a whole number of seconds above 0"),
  /** Devices a bulk settings operation talks to at once (its pace). */
  ESS_BULK_CONCURRENCY: positiveInt(20, "a whole number above 0"),
  /**
   * How often any process ends the device records past their time (writes unanswered or queued too
   * long, self-checks) and takes up what a stopped process left queued; a bulk operation whose
   * process stopped is taken over after three of these.
   */
  ESS_WRITE_SWEEP_MS: z.coerce
    .number({ message: "a whole number of milliseconds from 100 to 60000" })
    .int("a whole number of milliseconds from 100 to 60000")
    .min(100, "a whole number of milliseconds from 100 to 60000")
    .max(60_000, "a whole number of milliseconds from 100 to 60000")
    .default(5000),
  /** Seconds a self-check may run without the device reporting its end before it fails with cause "timeout". */
  ESS_SELF_CHECK_TIMEOUT_S: positiveInt(1800, "a whole number of seconds above 0"),
  /** Seconds a cleared alarm condition must stay clear before the alarm closes (flap hysteresis). */
  ESS_ALARM_CLEAR_HOLD_S: z.coerce
    .number({ message: "a whole number of seconds from 0 to 3600" })
    .int("a whole number of seconds from 0 to 3600")
    .min(0, "a whole number of seconds from 0 to 3600")
    .max(3600, "a whole number of seconds from 0 to 3600")
    .default(60),
  /** Devices raising the same code within the storm window that make one summary reminder instead of many. */
  ESS_ALARM_STORM_DEVICES: positiveInt(10, "a whole number of devices above 0"),
  /** The storm window, seconds. */
  ESS_ALARM_STORM_WINDOW_S: positiveInt(60, "a whole number of seconds above 0"),
  /**
   * Alarm observations (stored readings and alarm events) that no detection step applied within this
   * many seconds — the database refused them for longer, or the console stopped — are applied by a
   * recovery pass that runs this often, in any console process.
   */
  ESS_ALARM_RECOVERY_S: positiveInt(30, "a whole number of seconds above 0"),
  /** Days of telemetry history kept (whole daily partitions are dropped past it). */
  ESS_TELEMETRY_RETENTION_DAYS: positiveInt(400, "a whole number of days above 0"),
  /**
   * Telemetry batches written at once, each in its own transaction: while some wait for their
   * commit the next are copied. With 100,000 devices 4 stored 5–18 % more frames/s than 2 at the
   * pipeline's limit (docs/performance.md). Each holds a database connection while it writes.
   */
  ESS_INGEST_WRITERS: z.coerce
    .number({ message: "a whole number from 1 to 16" })
    .int("a whole number from 1 to 16")
    .min(1, "a whole number from 1 to 16")
    .max(16, "a whole number from 1 to 16")
    .default(4),
  /**
   * How often the daily energy takes in the readings ingest stored. Longer: fewer rewrites of a
   * device's day (one per interval, not one per reading); statistics trail live data by up to this.
   */
  ESS_ENERGY_ROLLUP_MS: z.coerce
    .number({ message: "a whole number of milliseconds from 50 to 600000" })
    .int("a whole number of milliseconds from 50 to 600000")
    .min(50, "a whole number of milliseconds from 50 to 600000")
    .max(600_000, "a whole number of milliseconds from 50 to 600000")
    .default(60_000),
  /**
   * How often online devices whose battery chemistry is unknown (a setting, not in their readings)
   * are asked for the settings page that holds it; 0 never asks.
   */
  ESS_IDENTITY_READ_MS: z.coerce
    .number({ message: "0, or a whole number of milliseconds from 1000 to 3600000" })
    .int("0, or a whole number of milliseconds from 1000 to 3600000")
    .refine((v) => v === 0 || (v >= 1000 && v <= 3_600_000), "0, or a whole number of milliseconds from 1000 to 3600000")
    .default(30_000),
  /** The console's address as devices reach it (package downloads); unset: the address it listens on. */
  ESS_PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/\S+$/, "an http:// or https:// URL")
    .optional(),
  /** How often the OTA dispatcher sends orders and checks deadlines. */
  ESS_OTA_TICK_MS: z.coerce
    .number({ message: "a whole number of milliseconds from 50 to 60000" })
    .int("a whole number of milliseconds from 50 to 60000")
    .min(50, "a whole number of milliseconds from 50 to 60000")
    .max(60_000, "a whole number of milliseconds from 50 to 60000")
    .default(1000),
  /** Seconds an OTA order waits for the device to accept it before it is sent again. */
  ESS_OTA_CONFIRM_TIMEOUT_S: positiveInt(60, "a whole number of seconds above 0"),
  /** Seconds an upgrade may go without progress before it is sent again (the device resumes) or fails. */
  ESS_OTA_PROGRESS_TIMEOUT_S: positiveInt(120, "a whole number of seconds above 0"),
  /** Seconds an upgrade waits for its offline device (a single upgrade; a campaign after its last time) before it fails. */
  ESS_OTA_OFFLINE_GIVEUP_S: positiveInt(3600, "a whole number of seconds above 0"),
  /** Password hashes (argon2id, on libuv's thread pool) at once; default one core fewer than the machine has. */
  ESS_PASSWORD_HASH_CONCURRENCY: positiveInt(Math.max(1, availableParallelism() - 1), "a whole number above 0"),
  /** Hashes waiting for a free slot beyond which sign-ins answer 429 at once. */
  ESS_PASSWORD_HASH_QUEUE: positiveInt(200, "a whole number above 0"),
  /** Time a client has to send a request's headers, from its first byte (answered 408, then closed). */
  ESS_HTTP_HEADERS_TIMEOUT_MS: millis(10_000, 100, 600_000),
  /** Time a client has to send a request's body once its headers are in (firmware uploads: ESS_HTTP_UPLOAD_TIMEOUT_MS). */
  ESS_HTTP_BODY_TIMEOUT_MS: millis(30_000, 100, 3_600_000),
  /** Time a client has to send a firmware package (the upload route's body, up to 64 MB). */
  ESS_HTTP_UPLOAD_TIMEOUT_MS: millis(600_000, 100, 3_600_000),
  /** An idle keep-alive connection is closed after this; keep it above a load balancer's own idle timeout. */
  ESS_HTTP_KEEPALIVE_TIMEOUT_MS: millis(72_000, 100, 3_600_000),
  /** A connection on which nothing moves either way for this long is closed (a request in progress included). */
  ESS_HTTP_IDLE_TIMEOUT_MS: millis(120_000, 100, 3_600_000),
  /** A WebSocket (/act/ws, /mqtt) is pinged this often and closed when the previous ping went unanswered. */
  ESS_WS_PING_MS: millis(30_000, 100, 3_600_000),
  /** Time a live-push (STOMP) client has to send its CONNECT frame. */
  ESS_REALTIME_CONNECT_TIMEOUT_MS: millis(10_000, 100, 600_000),
  /** Time a client of the embedded broker (TCP or WebSocket) has to send its MQTT CONNECT. */
  ESS_BROKER_CONNECT_TIMEOUT_MS: millis(10_000, 100, 600_000),
  /** The longest MQTT keep-alive the embedded broker accepts; a CONNECT with 0 (never) or more is refused. */
  ESS_BROKER_KEEPALIVE_MAX_S: z.coerce
    .number({ message: "a whole number of seconds from 1 to 65535" })
    .int("a whole number of seconds from 1 to 65535")
    .min(1, "a whole number of seconds from 1 to 65535")
    .max(65_535, "a whole number of seconds from 1 to 65535")
    .default(600),
  /**
   * The utility's IEEE 2030.5 DeviceCapability URL (CSIP-AUS). Set: the console registers its
   * participating devices with the utility as their aggregator. Unset: no grid connection.
   */
  ESS_GRID_DCAP_URL: z
    .string()
    .regex(/^https:\/\/\S+$/, "an https:// URL")
    .optional(),
  /** PEM file paths: the aggregator's client certificate, its private key, the utility's CA (SERCA). */
  ESS_GRID_CERT: z.string().min(1, "a file path").optional(),
  ESS_GRID_KEY: z.string().min(1, "a file path").optional(),
  ESS_GRID_CA: z.string().min(1, "a file path").optional(),
  /** IANA Private Enterprise Number ending every LFDI and mRID the console makes (default: RFC 5612's). */
  ESS_GRID_PEN: z.coerce
    .number({ message: "a whole number from 1 to 99999999" })
    .int("a whole number from 1 to 99999999")
    .refine(isPen, "a whole number from 1 to 99999999")
    .default(GRID_IDENTITY_DEFAULTS.pen),
  /** Which devices take part: `au` those with country code Australia and an NMI, `all` every device. */
  ESS_GRID_SITES: z.enum(["au", "all"], { message: "au or all" }).default("au"),
  /** Installer PIN (six digits with check digit) for sites whose own PIN column is empty; unset: not checked. */
  ESS_GRID_PIN: z
    .string()
    .refine(isRegistrationPin, "six digits, the last the check digit of the first five (e.g. 111115)")
    .optional(),
  /**
   * Jobs that run in one process of the console (cluster/console-jobs.ts, and the grid client) are
   * each led through a lease in the database: renewed every third of this, taken over by another
   * process when not renewed for this long.
   */
  ESS_JOB_LEASE_TTL_MS: millis(15_000, 300, 600_000),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
      message: "one of fatal, error, warn, info, debug, trace, silent",
    })
    .default("info"),
  NODE_ENV: z.enum(["development", "production", "test"], { message: "development, production or test" }).default("production"),
});

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

/** Reads the configuration; throws ConfigError whose message is one line per wrong variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const known = Object.fromEntries(
    Object.keys(configSchema.shape)
      .map((key) => [key, env[key] === "" ? undefined : env[key]] as const)
      .filter(([, value]) => value !== undefined),
  );
  const result = configSchema.safeParse(known);
  if (result.success) {
    const missing = requiredTogether(result.data);
    if (missing.length > 0) throw new ConfigError(missing.join(" "));
    return result.data;
  }
  const lines = result.error.issues.map((issue) => {
    const name = String(issue.path[0]);
    const shown = name.includes("PASSWORD") || name.includes("KEY") ? "(hidden)" : JSON.stringify(known[name]);
    return `${name}=${shown} is not valid: expected ${issue.message}.`;
  });
  throw new ConfigError(lines.join(" "));
}

/** Settings that only work with others: one line for each that is missing. */
function requiredTogether(config: Config): string[] {
  const lines: string[] = [];
  if (config.ESS_FILE_STORE === "s3" && !config.ESS_S3_BUCKET)
    lines.push("ESS_S3_BUCKET is not set: ESS_FILE_STORE=s3 needs it.");
  if (config.DATABASE_URL && config.ESS_INGEST_WRITERS >= config.DATABASE_POOL_SIZE)
    lines.push(
      `ESS_INGEST_WRITERS=${config.ESS_INGEST_WRITERS} needs DATABASE_POOL_SIZE above it (now ${config.DATABASE_POOL_SIZE}): the console's other work shares the pool.`,
    );
  if (Boolean(config.ESS_S3_ACCESS_KEY_ID) !== Boolean(config.ESS_S3_SECRET_ACCESS_KEY))
    lines.push(
      "ESS_S3_ACCESS_KEY_ID and ESS_S3_SECRET_ACCESS_KEY go together: set both, or neither to use the SDK's own credentials.",
    );
  return lines;
}

/**
 * The file store in use: a console on a PostgreSQL server may run as several processes, each of
 * which must serve every package, so there the database is the default.
 */
export function fileStoreKind(config: Pick<Config, "ESS_FILE_STORE" | "DATABASE_URL">): "folder" | "database" | "s3" {
  return config.ESS_FILE_STORE ?? (config.DATABASE_URL ? "database" : "folder");
}

/** The connection URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparseable URL)";
  }
}
