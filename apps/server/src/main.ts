import { ClusterRefusedError } from "./cluster/open-bus.ts";
import { type Config, ConfigError, loadConfig, redactUrl } from "./config/config.ts";
import { MigrationError } from "./db/migrate.ts";
import { DataDirInUseError } from "./db/open.ts";
import { FileStoreUnreachableError } from "./files/s3-store.ts";
import { BrokerUnreachableError } from "./mqtt/bus.ts";
import { PortInUseError, type Runtime, startRuntime } from "./runtime.ts";
import { ADMIN_USERNAME } from "./seed/foundation.seed.ts";

const say = (line = "") => process.stdout.write(`${line}\n`);

/**
 * Where the console runs and how to sign in, framed (and bold on a terminal), written at once so
 * that nothing else lands between its lines.
 */
function signInBanner(url: string, seed: Runtime["seed"], terminal: boolean): string {
  const lines = [`ESS Console is running at ${url}`];
  if (seed.generatedAdminPassword) {
    lines.push(`Sign in as "${ADMIN_USERNAME}" with password ${seed.generatedAdminPassword}`);
    lines.push("(generated now and shown only this once; you will be asked to change it at first sign-in)");
  } else if (seed.adminCreated) lines.push(`Sign in as "${ADMIN_USERNAME}" with the password from ESS_ADMIN_PASSWORD.`);
  else lines.push(`Sign in as "${ADMIN_USERNAME}" with the password chosen at the first start.`);
  const width = Math.max(...lines.map((l) => l.length));
  const [bold, plain] = terminal ? ["\x1b[1m", "\x1b[0m"] : ["", ""];
  const rule = "─".repeat(width + 2);
  return [
    `┌${rule}┐`,
    ...lines.map((l, i) => `│ ${i < 2 ? bold : ""}${l.padEnd(width)}${i < 2 ? plain : ""} │`),
    `└${rule}┘`,
    "",
  ].join("\n");
}

/** Turns a start-up failure into the one line an operator needs. */
function explain(error: unknown, env: NodeJS.ProcessEnv): string {
  if (error instanceof ConfigError) return `Configuration error: ${error.message}`;
  if (
    error instanceof PortInUseError ||
    error instanceof DataDirInUseError ||
    error instanceof MigrationError ||
    error instanceof ClusterRefusedError ||
    error instanceof FileStoreUnreachableError
  ) {
    return error.message;
  }
  if (error instanceof BrokerUnreachableError) {
    const hint = env.MQTT_URL ? "Check MQTT_URL." : "The embedded broker did not accept the server's connection.";
    return `Cannot reach the MQTT broker at ${redactUrl(error.url)}: ${error.message}. ${hint}`;
  }
  const e = error as NodeJS.ErrnoException & { code?: string };
  if (env.DATABASE_URL && (e.code?.startsWith("E") || /connect|timeout|password|database/i.test(e.message ?? ""))) {
    return `Cannot reach the database at ${redactUrl(env.DATABASE_URL)}: ${e.message || e.code}. Check DATABASE_URL and that PostgreSQL is running.`;
  }
  return `The server could not start: ${e?.message ?? String(error)}`;
}

async function main() {
  let runtime: Runtime | undefined;
  let config: Config | undefined;
  try {
    config = loadConfig(process.env);
    runtime = await startRuntime(config);
    // The details first, then the address and how to sign in, last and framed, so that the
    // one-time password is what the screen ends with.
    say();
    say(`  API documentation: ${runtime.url}api/docs`);
    if (config.ESS_CAPTCHA === "off") say("  WARNING: captcha and slide verification are off (ESS_CAPTCHA=off).");
    if (config.ESS_DEMO_MODE === "on") say("  Demo mode: changes are refused (ESS_DEMO_MODE=on).");
    say(
      `  MQTT broker for devices: ${redactUrl(runtime.brokerUrl)}${config.MQTT_URL ? "" : ` (embedded; WebSocket at ${runtime.url.replace(/^http/, "ws")}mqtt)`}`,
    );
    say(`  Database: ${config.DATABASE_URL ? redactUrl(config.DATABASE_URL) : `embedded PGlite in ${config.DATA_DIR}`}`);
    say("  Press Ctrl-C to stop.");
    say();
    process.stdout.write(signInBanner(runtime.url, runtime.seed, Boolean(process.stdout.isTTY)));
  } catch (error) {
    process.stderr.write(`${explain(error, process.env)}\n`);
    process.exit(1);
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      process.stderr.write("Forced exit.\n");
      process.exit(1);
    }
    stopping = true;
    say(`${signal} received: stopping…`);
    const deadline = config?.ESS_SHUTDOWN_TIMEOUT_MS ?? 4000;
    const timer = setTimeout(() => {
      process.stderr.write(`Shutdown took longer than ${deadline} ms; exiting anyway.\n`);
      process.exit(1);
    }, deadline);
    await runtime?.close();
    clearTimeout(timer);
    say("Stopped.");
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

await main();
