import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Db } from "../../src/db/db.ts";
import { openPostgres } from "../../src/db/postgres.driver.ts";
import { MOSQUITTO, type OwnMosquitto, ownMosquitto } from "../helpers/mosquitto.ts";
import { freePort, listening, overHttp, type ServerProcess, startServerProcess, tempDataDir } from "../helpers/server-process.ts";
import { ADMIN_PASSWORD } from "../helpers/test-app.ts";
import { freshDatabaseUrl } from "../helpers/test-db.ts";
import { apiAs } from "../ota/ota-world.ts";

/**
 * A console of several processes as production runs it: each process the real server entry point
 * on one PostgreSQL (a fresh database on TEST_DATABASE_URL), all consuming from a Mosquitto of the
 * test's own through one shared-subscription group, behind an HAProxy of the test's own (Debian's)
 * that sends each request to a ready process. A process can be killed and started again with the
 * same settings (same port, same MQTT client id), as an orchestrator restarts it.
 */

export const HAPROXY = ["/usr/sbin/haproxy", "/usr/bin/haproxy"].find(existsSync);
export const canRunCluster = Boolean(process.env.TEST_DATABASE_URL && MOSQUITTO && HAPROXY);

// The same field key in every process: what one seals another opens.
const FIELD_KEY = "4f".repeat(32);

export interface ClusterProcess {
  readonly index: number;
  readonly url: string;
  readonly env: Record<string, string>;
  server: ServerProcess;
}

async function startHaproxy(port: number, ports: number[]): Promise<{ url: string; child: ChildProcess }> {
  const dir = tempDataDir("ess-haproxy-");
  const config = join(dir, "haproxy.cfg");
  writeFileSync(
    config,
    [
      "global",
      "  maxconn 512",
      "defaults",
      "  mode http",
      "  timeout connect 1s",
      "  timeout client 30s",
      "  timeout server 30s",
      "  timeout tunnel 120s",
      // A request whose process is gone is sent to another (connection refused is safe to retry).
      "  retries 3",
      "  option redispatch",
      "frontend console",
      `  bind 127.0.0.1:${port}`,
      "  default_backend processes",
      "backend processes",
      "  balance roundrobin",
      "  option httpchk GET /readyz",
      "  http-check expect status 200",
      "  default-server check inter 500 fall 2 rise 1",
      ...ports.map((p, i) => `  server p${i} 127.0.0.1:${p}`),
      "",
    ].join("\n"),
  );
  const child = spawn(HAPROXY as string, ["-f", config, "-db"], { stdio: ["ignore", "ignore", "pipe"] });
  let errors = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
  });
  for (let i = 0; i < 200 && !(await listening(port)); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  if (!(await listening(port))) {
    child.kill("SIGKILL");
    throw new Error(`haproxy did not listen on ${port}: ${errors}`);
  }
  return { url: `http://127.0.0.1:${port}/`, child };
}

export async function startConsoleCluster(options: { processes: number; env: Record<string, string> }) {
  const fresh = await freshDatabaseUrl();
  if (!fresh) throw new Error("a console of several processes needs TEST_DATABASE_URL");
  const broker: OwnMosquitto = await ownMosquitto({ persistence: true, autosaveIntervalS: 1 });
  const group = `ess-cluster-${process.pid}`;
  // Devices download packages from the console's public address: the balancer's.
  const proxyPort = await freePort();
  const processes: ClusterProcess[] = [];
  let proxy: Awaited<ReturnType<typeof startHaproxy>> | undefined;
  let db: Db | undefined;
  // A start that fails half way stops what it started: no console process outlives the test.
  const stopAll = async (signal: "SIGTERM" | "SIGKILL") => {
    for (const p of processes) await p.server.stop(signal).catch(() => p.server.stop("SIGKILL").catch(() => {}));
    proxy?.child.kill("SIGTERM");
    await db?.close().catch(() => {});
    await broker.stop("SIGTERM");
    await fresh.drop().catch(() => {});
  };
  let token = "";
  try {
    for (let index = 0; index < options.processes; index++) {
      const port = await freePort();
      const env: Record<string, string> = {
        PORT: String(port),
        DATA_DIR: tempDataDir(`ess-cluster-${index}-`),
        DATABASE_URL: fresh.url,
        MQTT_URL: broker.url,
        MQTT_SHARED_GROUP: group,
        MQTT_CLIENT_ID: `${group}-${index}`,
        MQTT_SESSION_EXPIRY_S: "600",
        ESS_FIELD_KEY: FIELD_KEY,
        ESS_ADMIN_PASSWORD: ADMIN_PASSWORD,
        ESS_REPEAT_GUARD_MS: "0",
        ESS_PUBLIC_URL: `http://127.0.0.1:${proxyPort}`,
        ...options.env,
      };
      processes.push({ index, url: `http://127.0.0.1:${port}/`, env, server: startServerProcess(env) });
      // The first applies the migrations; the others then start together.
      if (index === 0) await processes[0]?.server.ready();
    }
    await Promise.all(processes.map((p) => p.server.ready()));
    proxy = await startHaproxy(
      proxyPort,
      processes.map((p) => Number(p.env.PORT)),
    );
    db = await openPostgres({ url: fresh.url, poolSize: 4, connectTimeoutMs: 5000 });

    const signIn = async () => {
      const r = await fetch(`${proxy?.url}login?grant_type=admin`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: "admin", password: ADMIN_PASSWORD }),
      });
      return ((await r.json()) as { data: { access_token: string } }).data.access_token;
    };
    token = await signIn();
  } catch (error) {
    await stopAll("SIGKILL");
    throw error;
  }
  const proxyUrl = (proxy as NonNullable<typeof proxy>).url;

  return {
    db: db as Db,
    broker,
    processes,
    token,
    /** The console through the load balancer. */
    api: apiAs(
      () => overHttp(() => proxyUrl),
      () => token,
    ),
    /** One process directly, as a browser whose connection the balancer gave to it. */
    apiOf: (index: number) =>
      apiAs(
        () => overHttp(() => processes[index]?.url ?? ""),
        () => token,
      ),
    /** A metric's value in one process (0 when absent). */
    async metric(index: number, name: string, labels = ""): Promise<number> {
      const text = await (await fetch(`${processes[index]?.url}metrics`)).text();
      const line = text.split("\n").find((l) => l.startsWith(`${name}${labels} `));
      return Number(line?.split(" ")[1] ?? 0);
    },
    /** SIGKILL: no clean-up at all, leases and broker session left as they were. */
    async kill(index: number) {
      await processes[index]?.server.stop("SIGKILL");
    },
    /** Starts a killed process again with its settings, as an orchestrator would. */
    async restart(index: number) {
      const p = processes[index];
      if (!p) throw new RangeError(`no process ${index}`);
      p.server = startServerProcess(p.env);
      await p.server.ready();
    },
    async close() {
      await stopAll("SIGTERM");
    },
  };
}

export type ConsoleCluster = Awaited<ReturnType<typeof startConsoleCluster>>;
