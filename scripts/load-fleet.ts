/**
 * `npm run fleet:load -- [devices=3000] [minutes=5] [interval-ms=10000]`: a load run of the whole
 * console — its own server (embedded database and broker in a temporary folder, or DATABASE_URL /
 * MQTT_URL from the environment) with that many simulated devices beside it, registered through
 * the API as `npm start` does — printing every 10 s how many frames were stored per second, the
 * ingest queue and the batch time. Stops by itself.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type SimulatorProcess, startDemoFleet } from "@ess/simulator";
import { brokerAddress, consoleAddress, consoleReady } from "./demo-fleet.ts";

const devices = Number(process.argv[2] ?? 3000);
const minutes = Number(process.argv[3] ?? 5);
const interval = Number(process.argv[4] ?? 10_000);
const root = fileURLToPath(new URL("..", import.meta.url));
const port = process.env.PORT ?? "7190";
const dataDir = mkdtempSync(join(tmpdir(), "ess-load-"));
const env = {
  DATA_DIR: dataDir,
  NODE_ENV: "development",
  MQTT_PORT: process.env.MQTT_PORT ?? "1990",
  ...process.env,
  PORT: port,
  LOG_LEVEL: "error",
  ESS_ADMIN_PASSWORD: "Load12345",
  ESS_SHUTDOWN_TIMEOUT_MS: "20000",
};
const server = spawn(process.execPath, [join(root, "apps/server/src/main.ts")], {
  cwd: root,
  stdio: ["ignore", "pipe", "inherit"],
  env,
});
server.stdout?.pipe(process.stdout);
let serverExited = false;
let simulator: SimulatorProcess | undefined;
server.on("exit", async (code) => {
  serverExited = true;
  await simulator?.stop();
  process.exit(code ?? 0);
});
const consoleUrl = consoleAddress(env) as string;
await consoleReady(consoleUrl, () => serverExited);
simulator = await startDemoFleet({
  consoleUrl,
  brokerUrl: brokerAddress(env, consoleUrl),
  username: "admin",
  password: env.ESS_ADMIN_PASSWORD,
  count: devices,
  file: join(dataDir, "demo-fleet.json"),
  intervalMs: interval,
});

const metrics = async () => {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)`, "m").exec(text)?.[1] ?? 0);
  return {
    stored: value('ess_ingest_frames_total\\{outcome="stored"\\}'),
    queue: value("ess_ingest_queue_frames"),
    batchSum: value("ess_ingest_batch_seconds_sum"),
    batches: value("ess_ingest_batch_seconds_count"),
  };
};

const stop = () => {
  void simulator?.stop();
  server.kill("SIGINT");
};
process.on("SIGINT", stop);
let previous = { stored: 0, batches: 0, batchSum: 0, at: Date.now() };
const timer = setInterval(async () => {
  try {
    const m = await metrics();
    const now = Date.now();
    const rate = ((m.stored - previous.stored) * 1000) / (now - previous.at);
    const batchMs = m.batches > previous.batches ? ((m.batchSum - previous.batchSum) / (m.batches - previous.batches)) * 1000 : 0;
    process.stdout.write(
      `${new Date().toISOString()}  ${rate.toFixed(0)} frames/s stored (expected ${((devices * 1000) / interval).toFixed(0)})  queue ${m.queue}  batch ${batchMs.toFixed(1)} ms\n`,
    );
    previous = { ...m, at: now };
  } catch {
    // not up yet
  }
}, 10_000);
setTimeout(() => {
  clearInterval(timer);
  stop();
}, minutes * 60_000);
