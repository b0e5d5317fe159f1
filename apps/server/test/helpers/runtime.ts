import { loadConfig } from "../../src/config/config.ts";
import { type Runtime, startRuntime } from "../../src/runtime.ts";
import { seedMigratedPglite } from "./pgdata-template.ts";
import { tempDataDir } from "./server-process.ts";
import { freshDatabaseUrl } from "./test-db.ts";

/**
 * The whole server in-process on free ports: PGlite in a temporary folder, or a fresh database
 * on TEST_DATABASE_URL; the embedded broker unless `mqttUrl` is given.
 */
export async function startTestRuntime(
  env: Record<string, string> = {},
  options: Parameters<typeof startRuntime>[1] = {},
): Promise<Runtime> {
  const database = await freshDatabaseUrl();
  const config = loadConfig({
    PORT: "0",
    MQTT_PORT: "0",
    DATA_DIR: tempDataDir(),
    LOG_LEVEL: "silent",
    ESS_ADMIN_PASSWORD: "Admin12345",
    NODE_ENV: "test",
    // Other features' tests sign in through the API; the captcha has tests of its own.
    // Daily energy within a test's patience (the default merges every 15 s).
    ESS_ENERGY_ROLLUP_MS: "250",
    // Devices are not asked for their identity settings unless a test is about it (it sends page reads).
    ESS_IDENTITY_READ_MS: "0",
    ESS_CAPTCHA: "off",
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  if (!config.DATABASE_URL) await seedMigratedPglite(config.DATA_DIR);
  const runtime = await startRuntime(config, options).catch(async (error) => {
    // A refused start leaves no scratch database behind.
    await database?.drop();
    throw error;
  });
  // Not a copy: some of the runtime's properties are read when asked (`grid`).
  const close = runtime.close;
  runtime.close = async () => {
    await close();
    await database?.drop();
  };
  return runtime;
}
