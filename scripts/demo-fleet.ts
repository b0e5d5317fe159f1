/**
 * The demo fleet that `npm start` runs beside the console: what the start script needs to know to
 * provision it through the console's API (the console's address, the broker's, the administrator's
 * password) and to wait for the console to answer. The console itself knows nothing of it.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isAcceptablePassword } from "@ess/domain";

type Env = NodeJS.ProcessEnv;

/** A whole number from the environment within bounds, or the reason it is refused. */
function wholeNumber(env: Env, name: string, fallback: number, min: number, max: number): number | string {
  const text = env[name];
  if (text === undefined || text === "") return fallback;
  const n = Number(text);
  return Number.isInteger(n) && n >= min && n <= max ? n : `${name}: a whole number from ${min} to ${max}`;
}

/** ESS_DEMO_DEVICES and ESS_DEMO_INTERVAL_MS, or the line that explains a wrong value. */
export function demoSettings(env: Env, defaultCount: number): { count: number; intervalMs: number } | { problem: string } {
  const count = wholeNumber(env, "ESS_DEMO_DEVICES", defaultCount, 0, 10_000);
  const intervalMs = wholeNumber(env, "ESS_DEMO_INTERVAL_MS", 10_000, 100, 3_600_000);
  if (typeof count === "string") return { problem: `Configuration error: ${count}` };
  if (typeof intervalMs === "string") return { problem: `Configuration error: ${intervalMs}` };
  return { count, intervalMs };
}

/** Where the console answers, as the server builds its own address (a wildcard host is reached on loopback). */
export function consoleAddress(env: Env): string | null {
  const port = env.PORT ?? "7072";
  if (port === "0") return null;
  const host = env.HOST ?? "127.0.0.1";
  const reachable = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host;
  return `http://${reachable.includes(":") ? `[${reachable}]` : reachable}:${port}/`;
}

/** Where the demo devices connect: the external broker, else the embedded one's TCP port. */
export function brokerAddress(env: Env, consoleUrl: string): string {
  if (env.MQTT_URL) return env.MQTT_URL;
  return `mqtt://${new URL(consoleUrl).hostname}:${env.MQTT_PORT ?? "1884"}`;
}

const PASSWORD_FILE = "admin-password";

function generatedPassword(): string {
  for (;;) {
    const candidate = randomBytes(12).toString("base64url").replace(/[-_]/g, "").slice(0, 14);
    if (/[A-Za-z]/.test(candidate) && /\d/.test(candidate) && isAcceptablePassword(candidate)) return candidate;
  }
}

export type AdminPassword = { password: string; file: string | null; generated: boolean } | { problem: string };

/**
 * The password the start script signs in with as the administrator to provision the demo fleet:
 * ESS_ADMIN_PASSWORD; else the one it made at the first start and kept in DATA_DIR/admin-password
 * (readable by this user only), passed to the server as ESS_ADMIN_PASSWORD so the administrator is
 * created with it. An administrator created otherwise (a generated password since changed, or a
 * database elsewhere) is signed in only with ESS_ADMIN_PASSWORD.
 */
export function adminPassword(env: Env, dataDir: string): AdminPassword {
  if (env.ESS_ADMIN_PASSWORD) return { password: env.ESS_ADMIN_PASSWORD, file: null, generated: false };
  const file = join(dataDir, PASSWORD_FILE);
  if (existsSync(file)) return { password: readFileSync(file, "utf8").trim(), file, generated: false };
  const firstStart = !env.DATABASE_URL && !existsSync(join(dataDir, "pgdata"));
  if (!firstStart) {
    return { problem: "the administrator's password is not known to npm start: set ESS_ADMIN_PASSWORD to it" };
  }
  const password = generatedPassword();
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return { password, file, generated: true };
}

/**
 * Sets a kept password aside once the console refused it (changed since), so later starts do not
 * count failed sign-ins against the administrator.
 */
export function setAsideRefusedPassword(file: string): string {
  const aside = `${file}.refused`;
  renameSync(file, aside);
  return aside;
}

/** Resolves once the console answers /readyz; rejects if `stopped()` turns true first. */
export async function consoleReady(url: string, stopped: () => boolean): Promise<void> {
  for (;;) {
    if (stopped()) throw new Error("the console stopped before it was ready");
    const status = await fetch(new URL("readyz", url), { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
