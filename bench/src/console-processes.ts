/**
 * More console processes for the ingest bench: the real server entry point (apps/server/src/main.ts)
 * as child processes on the bench's database and broker, in the same shared-subscription group as
 * the console in the bench's own process, so that the broker spreads the devices' frames over all
 * of them. Each has an MQTT client id and a data folder of its own, as separate hosts would.
 *
 * The bench's own console stays one of the N: it ran the migrations and the single-process ladder,
 * its directory and session are warm, so the N-process figure differs from the single-process one
 * only by the processes added.
 */
import { rmSync } from "node:fs";
import { type ServerProcess, startServerProcess, tempDataDir } from "@ess/server/testing";

export interface ConsoleProcesses {
  /** Their HTTP addresses (for /metrics). */
  urls: string[];
  pids: number[];
  /** Stops each by its PID (SIGINT, then SIGKILL if it has not exited within 10 s). */
  stop(): Promise<void>;
}

export async function startConsoleProcesses(
  count: number,
  env: { DATABASE_URL: string; MQTT_URL: string; MQTT_SHARED_GROUP: string; clientIdPrefix: string },
): Promise<ConsoleProcesses> {
  const started: { server: ServerProcess; dataDir: string }[] = [];
  // A bench interrupted or failing anywhere still leaves no console behind.
  const killAll = () => {
    for (const { server, dataDir } of started) {
      if (server.child.exitCode === null) server.child.kill("SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    }
  };
  const onSignal = () => {
    killAll();
    process.exit(130);
  };
  process.once("exit", killAll);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const stop = async () => {
    await Promise.all(
      started.map(async ({ server, dataDir }) => {
        await server.stop("SIGINT").catch(() => {
          server.child.kill("SIGKILL");
        });
        rmSync(dataDir, { recursive: true, force: true });
      }),
    );
    process.off("exit", killAll);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  };
  try {
    for (let i = 0; i < count; i++) {
      const dataDir = tempDataDir("ess-bench-console-");
      const server = startServerProcess({
        DATABASE_URL: env.DATABASE_URL,
        MQTT_URL: env.MQTT_URL,
        MQTT_SHARED_GROUP: env.MQTT_SHARED_GROUP,
        MQTT_CLIENT_ID: `${env.clientIdPrefix}-${i + 2}`,
        MQTT_SESSION_EXPIRY_S: "30",
        DATA_DIR: dataDir,
        LOG_LEVEL: "error",
        ESS_ADMIN_PASSWORD: "Bench12345",
        // As the bench's own console: the production interval unless the bench was given one.
        ESS_ENERGY_ROLLUP_MS: process.env.ESS_ENERGY_ROLLUP_MS ?? "60000",
      });
      started.push({ server, dataDir });
    }
    const urls = await Promise.all(started.map(({ server }) => server.ready()));
    return { urls, pids: started.map(({ server }) => server.child.pid as number), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
