import { join } from "node:path";
import { baselineValues, blocksFromValues, encodeFrame, TELEMETRY_REGISTERS, telemetryLayout } from "@ess/contracts";
import mqtt, { type MqttClient } from "mqtt";
import { afterAll, describe, expect, it } from "vitest";
import type { Db } from "../../src/db/db.ts";
import { migrate } from "../../src/db/migrate.ts";
import { openPglite } from "../../src/db/pglite.driver.ts";
import { openPostgres } from "../../src/db/postgres.driver.ts";
import { localDay } from "../../src/modules/telemetry/local-day.ts";
import { registerDevice, testBrokers, uniqueSerial } from "../helpers/devices.ts";
import { freePort, type ServerProcess, startServerProcess, tempDataDir } from "../helpers/server-process.ts";
import { freshDatabaseUrl } from "../helpers/test-db.ts";

const DEVICES = 8;
const FRAMES = 120;

/** The database the server process uses: a fresh PostgreSQL database, or PGlite in its data folder. */
async function openStore(dataDir: string) {
  const fresh = await freshDatabaseUrl();
  const withDb = async <T>(fn: (db: Db) => Promise<T>): Promise<T> => {
    const db = fresh
      ? await openPostgres({ url: fresh.url, poolSize: 2, connectTimeoutMs: 5000 })
      : await openPglite(join(dataDir, "pgdata"));
    try {
      return await fn(db);
    } finally {
      await db.close();
    }
  };
  const env: Record<string, string> = fresh ? { DATABASE_URL: fresh.url } : {};
  return { env, withDb, drop: () => fresh?.drop() };
}

/** A full three-phase frame whose daily and total PV counters say which reading it is. */
function frame(ts: number, k: number) {
  const values = { ...baselineValues(TELEMETRY_REGISTERS.three), TP_0X04_31_32: k * 0.1, TP_0X04_33_34: 1000 + k * 0.1 };
  return encodeFrame(
    { kind: "telemetry", ts, seq: k, requestId: 0, page: 0, flags: 0 },
    blocksFromValues(telemetryLayout("three"), values),
  );
}

describe.each(testBrokers())("killing the server during a burst, on the $name", ({ name, env }) => {
  const servers: ServerProcess[] = [];
  const clients: MqttClient[] = [];
  afterAll(async () => {
    for (const c of clients) c.end(true);
    for (const s of servers) await s.stop("SIGKILL").catch(() => {});
  });

  it("loses no acknowledged frame and counts none twice", async () => {
    const dataDir = tempDataDir();
    const store = await openStore(dataDir);
    const mqttPort = await freePort();
    const serverEnv: Record<string, string> = {
      DATA_DIR: dataDir,
      ESS_ADMIN_PASSWORD: "Admin12345",
      MQTT_PORT: String(mqttPort),
      ...store.env,
      ...env,
      // No daily merge runs on its own during the test: what was stored before the kill reaches the
      // daily energy only through the merge on start, what came after only through the stop.
      ESS_ENERGY_ROLLUP_MS: "600000",
      // One client id across the restart: the broker keeps the session and what arrives meanwhile.
      ...(env.MQTT_URL ? { MQTT_CLIENT_ID: `ess-restart-${env.MQTT_SHARED_GROUP}` } : {}),
    };
    const devices = await store.withDb(async (db) => {
      await migrate(db);
      await db.query("INSERT INTO tenant (id, name) VALUES (1, 'Default') ON CONFLICT (id) DO NOTHING");
      const out = [];
      for (let i = 0; i < DEVICES; i++)
        out.push(await registerDevice(db, { sn: uniqueSerial("KILL"), phaseType: 2, timeZone: "Europe/Rome" }));
      return out;
    });

    let server = startServerProcess(serverEnv);
    servers.push(server);
    await server.ready();
    const brokerUrl = env.MQTT_URL ?? `mqtt://127.0.0.1:${mqttPort}`;
    const t0 = Date.now() - 2 * 3_600_000;
    const acknowledged = new Set<string>();
    let killed = false;
    const bursts = devices.map(async (d) => {
      const client = await mqtt.connectAsync(brokerUrl, {
        clientId: d.sn,
        username: d.sn,
        password: d.secret,
        reconnectPeriod: 300,
        connectTimeout: 5000,
      });
      client.on("error", () => {});
      clients.push(client);
      // Unacknowledged publications are sent again after a reconnect (mqtt.js keeps them).
      const sent: Promise<void>[] = [];
      for (let k = 0; k < FRAMES; k++) {
        sent.push(
          client.publishAsync(`ess/v1/${d.sn}/telemetry`, frame(t0 + k * 1000, k), { qos: 1 }).then(() => {
            acknowledged.add(`${d.sn}:${k}:${killed ? "after" : "before"}`);
          }),
        );
        if (k % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await Promise.all(sent);
    });

    // Kill (SIGKILL: no flush, no goodbye) once part of the burst is acknowledged, then restart.
    await expect.poll(() => acknowledged.size, { timeout: 20_000, interval: 20 }).toBeGreaterThan((DEVICES * FRAMES) / 4);
    killed = true;
    const ackedBeforeKill = [...acknowledged].filter((a) => a.endsWith(":before")).length;
    await server.stop("SIGKILL");
    server = startServerProcess(serverEnv);
    servers.push(server);
    await server.ready();
    await Promise.all(bursts);
    expect(acknowledged.size).toBe(DEVICES * FRAMES);
    expect(ackedBeforeKill).toBeGreaterThan(0);
    expect(ackedBeforeKill).toBeLessThan(DEVICES * FRAMES);

    // Let the last batch commit, then stop cleanly and look at what was stored.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await server.stop("SIGTERM");
    const stored = await store.withDb(async (db) => {
      const history = await db.query<{ device_id: number; n: number; distinct_ts: number }>(
        "SELECT device_id, count(*)::int AS n, count(DISTINCT ts)::int AS distinct_ts FROM telemetry_history GROUP BY device_id",
      );
      const daily = await db.query<{ device_id: number; day: string; pv: number; first_ms: number }>(
        "SELECT device_id, day::text, pv, (extract(epoch FROM first_ts) * 1000)::float8 AS first_ms FROM device_energy_day",
      );
      return { history: history.rows, daily: daily.rows };
    });
    await store.drop();
    for (const d of devices) {
      expect(
        stored.history.find((h) => h.device_id === d.id),
        `${name} ${d.sn}`,
      ).toEqual({ device_id: d.id, n: FRAMES, distinct_ts: FRAMES });
      // The day's energy is the last daily-counter reading of the day, however often a frame came.
      const perDay = new Map<string, number>();
      for (let k = 0; k < FRAMES; k++) perDay.set(localDay(t0 + k * 1000, "Europe/Rome"), k * 0.1);
      for (const [day, pv] of perDay) {
        expect(stored.daily.find((r) => r.device_id === d.id && r.day === day)?.pv).toBeCloseTo(pv, 1);
      }
      // The first reading, stored before the kill, opens its day.
      const firstDay = stored.daily.find((r) => r.device_id === d.id && r.day === localDay(t0, "Europe/Rome"));
      expect(firstDay?.first_ms).toBe(t0);
    }
  }, 90_000);
});
