import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Queryable } from "@ess/server/internal/db/db.ts";
import { migrate } from "@ess/server/internal/db/migrate.ts";
import { openPglite } from "@ess/server/internal/db/pglite.driver.ts";
import { type ServerProcess, seedMigratedPglite, startServerProcess, tempDataDir } from "@ess/server/testing";
import { embeddedBrokerWsUrl } from "@ess/simulator";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { runDemoFleet } from "./demo-fleet-fixture.ts";
import { ADMIN_PASSWORD, signIn } from "./shell-fixture.ts";

const WEB_DIST = fileURLToPath(new URL("../../web/dist/index.html", import.meta.url));

/**
 * The built console served by the real server on free ports, with a fresh data folder. Sign-in
 * needs no captcha or slide verification (ESS_CAPTCHA=off) unless `env` sets ESS_CAPTCHA=on.
 */
export async function startConsole(env: Record<string, string> = {}): Promise<{ url: string; server: ServerProcess }> {
  if (!existsSync(WEB_DIST)) throw new Error("The web console is not built: run `npm run build` first (npm test does).");
  const dataDir = tempDataDir("ess-e2e-");
  if (!env.DATABASE_URL) await seedMigratedPglite(dataDir);
  const server = startServerProcess({ DATA_DIR: dataDir, ESS_ADMIN_PASSWORD: ADMIN_PASSWORD, ...env });
  return { url: await readyOrStopped(server), server };
}

/** The server's address once it is up; a server that does not come up is stopped with its fleet. */
async function readyOrStopped(server: ServerProcess): Promise<string> {
  try {
    return await server.ready();
  } catch (error) {
    // The caller never gets this server to stop, so it would outlive the test run.
    await server.stop().catch(() => undefined);
    throw error;
  }
}

/** What a fleet console starts with: its simulated devices and rows written before the server opens. */
export interface FleetOptions {
  /** Prefix of the temporary data folder, for finding it after a failure. */
  prefix: string;
  devices: number;
  intervalMs: number;
  env?: Record<string, string>;
  /** Writes rows into the fresh, migrated database of the default tenant before the server starts. */
  seed?: (db: Queryable) => Promise<void>;
}

/**
 * The real server in its own process with a demo fleet of simulated devices beside it, as `npm
 * start` runs them: registered through the API, the simulator in a process of its own connecting
 * to the embedded broker's WebSocket endpoint; stopping the server stops the fleet first. A seed
 * writes straight into the database first (devices that never connect, a year of history), which
 * no route could make as quickly.
 */
export async function startFleetConsole(options: FleetOptions): Promise<{ url: string; server: ServerProcess; dataDir: string }> {
  const dataDir = tempDataDir(options.prefix);
  if (!options.env?.DATABASE_URL) await seedMigratedPglite(dataDir);
  if (options.seed) {
    const db = await openPglite(join(dataDir, "pgdata"));
    await migrate(db);
    await db.query("INSERT INTO tenant (id, name) VALUES (1, 'Default') ON CONFLICT (id) DO NOTHING");
    await options.seed(db);
    await db.close();
  }
  const server = startServerProcess({ DATA_DIR: dataDir, ESS_ADMIN_PASSWORD: ADMIN_PASSWORD, ...options.env });
  const url = await readyOrStopped(server);
  const fleet = await runDemoFleet(
    { url, brokerUrl: embeddedBrokerWsUrl(url), dataDir },
    options.devices,
    options.intervalMs,
  ).catch(async (error: unknown) => {
    await server.stop().catch(() => undefined);
    throw error;
  });
  const stop: ServerProcess["stop"] = async (signal) => {
    await fleet.stop();
    return server.stop(signal);
  };
  return { url, server: { ...server, stop }, dataDir };
}

/** A new page signed in as the administrator, on the home page. */
export async function adminPage(browser: Browser, url: string, options: BrowserContextOptions = {}): Promise<Page> {
  const page = await browser.newPage({ locale: "en-US", viewport: { width: 1440, height: 900 }, ...options });
  await signIn(page, url, "admin", ADMIN_PASSWORD);
  return page;
}
