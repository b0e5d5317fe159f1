import type { FastifyInstance } from "fastify";
import { loadConfig } from "../../src/config/config.ts";
import { type Runtime, startRuntime } from "../../src/runtime.ts";
import { seedMigratedPglite } from "./pgdata-template.ts";
import { tempDataDir } from "./server-process.ts";

/**
 * The whole server (database, broker, HTTP, web console) started in the calling process, so a
 * browser test can reach inside it: publish on the realtime hub, add test-only routes with
 * `extend`, read the database. Ports are free ones; the data folder is fresh.
 */
export async function startInProcess(
  env: Record<string, string> = {},
  extend?: (app: FastifyInstance) => void,
): Promise<{ url: string; runtime: Runtime; stop: () => Promise<void> }> {
  const config = loadConfig({
    HOST: "127.0.0.1",
    PORT: "0",
    MQTT_PORT: "0",
    LOG_LEVEL: "warn",
    // Daily energy within a test's patience (the default merges every 15 s).
    ESS_ENERGY_ROLLUP_MS: "250",
    NODE_ENV: "test",
    DATA_DIR: tempDataDir("ess-e2e-"),
    ...env,
  });
  if (!config.DATABASE_URL) await seedMigratedPglite(config.DATA_DIR);
  const runtime = await startRuntime(config, extend ? { extend } : {});
  return { url: runtime.url, runtime, stop: () => runtime.close() };
}
