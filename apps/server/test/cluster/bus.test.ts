import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ClusterBus, createLocalBus, NOTICE_MAX_BYTES, startPostgresBus } from "../../src/cluster/bus.ts";
import type { Db } from "../../src/db/db.ts";
import { DEVICE_CHANGED_CHANNEL } from "../../src/modules/telemetry/device-directory.ts";
import { createMetrics } from "../../src/observability/metrics.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { waitUntil } from "../helpers/reminders.ts";
import { createTestDb, freshDatabaseUrl, TEST_DRIVER } from "../helpers/test-db.ts";

const silent = { info() {}, warn() {}, error() {} };

describe(`the database's announcements on ${TEST_DRIVER}`, () => {
  let db: Db;
  let bus: ClusterBus;
  let postgres: Awaited<ReturnType<typeof freshDatabaseUrl>> = null;
  beforeAll(async () => {
    postgres = await freshDatabaseUrl();
    if (postgres) {
      const { openPostgres } = await import("../../src/db/postgres.driver.ts");
      const { migrate } = await import("../../src/db/migrate.ts");
      db = await openPostgres({ url: postgres.url, poolSize: 3, connectTimeoutMs: 5000 });
      await migrate(db);
      bus = await startPostgresBus({ url: postgres.url, db, log: silent, connectTimeoutMs: 5000 });
    } else {
      db = await createTestDb();
      bus = createLocalBus(db);
    }
    await db.query("INSERT INTO tenant (id, name) VALUES (1, 'Default') ON CONFLICT (id) DO NOTHING");
  });
  afterAll(async () => {
    await bus?.close();
    await db?.close();
    await postgres?.drop();
  });

  it("names a device whose time zone, tenant or removal changed, and not one whose name changed", async () => {
    const heard: string[] = [];
    bus.listen(DEVICE_CHANGED_CHANNEL, (sn) => heard.push(sn));
    // PGlite's LISTEN and the LISTEN statement on PostgreSQL take a moment.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const a = await registerDevice(db, { sn: uniqueSerial("BUSA"), timeZone: "Europe/Rome" });
    const b = await registerDevice(db, { sn: uniqueSerial("BUSB") });
    await db.query("UPDATE device SET name = 'renamed', time_zone = time_zone WHERE id = ANY($1::bigint[])", [[a.id, b.id]]);
    await db.query("UPDATE device SET time_zone = 'Asia/Tokyo' WHERE id = $1", [a.id]);
    await db.query("UPDATE device SET deleted_at = now() WHERE id = $1", [b.id]);
    await waitUntil(() => heard.length >= 2, 3000, "two announcements");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard).toEqual([a.sn, b.sn]);
  });
});

// Several processes need a database server; PGlite is one process's alone.
describe.skipIf(TEST_DRIVER !== "postgres")("the bus between processes on one PostgreSQL", () => {
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let db: Db;
  const buses: ClusterBus[] = [];
  const open = async (metrics = createMetrics()) => {
    const url = (database as NonNullable<typeof database>).url;
    const bus = await startPostgresBus({ url, db, log: silent, connectTimeoutMs: 5000, pingMs: 500, metrics });
    buses.push(bus);
    return bus;
  };
  beforeAll(async () => {
    database = await freshDatabaseUrl();
    const { openPostgres } = await import("../../src/db/postgres.driver.ts");
    const { migrate } = await import("../../src/db/migrate.ts");
    db = await openPostgres({ url: (database as NonNullable<typeof database>).url, poolSize: 4, connectTimeoutMs: 5000 });
    await migrate(db);
  });
  afterAll(async () => {
    for (const bus of buses) await bus.close();
    await db?.close();
    await database?.drop();
  });

  it("runs a broadcast once where it was sent and once in the other process, in order, large ones too", async () => {
    const [metricsA, metricsB] = [createMetrics(), createMetrics()];
    const [a, b] = [await open(metricsA), await open(metricsB)];
    const inA: unknown[] = [];
    const inB: unknown[] = [];
    const sendA = a.broadcast<{ n: number; text?: string }>("test.order", (m) => inA.push(m.n));
    b.broadcast<{ n: number; text?: string }>("test.order", (m) => inB.push(m.text ? `${m.n}:${m.text.length}` : m.n));
    // Past NOTIFY's 8000 bytes: the payload travels through the database.
    const large = "é".repeat(NOTICE_MAX_BYTES);
    for (let n = 0; n < 300; n++) sendA(n === 150 ? { n, text: large } : { n });
    await waitUntil(() => inB.length === 300, 5000, "300 notices in B");
    expect(inA).toEqual([...Array(300).keys()]);
    expect(inB).toEqual([...Array(300).keys()].map((n) => (n === 150 ? `150:${large.length}` : n)));
    // The sender handled its own once: its notice came back to it and was ignored.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(inA).toHaveLength(300);
    const counted = async (m: ReturnType<typeof createMetrics>) =>
      Object.fromEntries((await m.clusterNotices.get()).values.map((v) => [v.labels.outcome, v.value]));
    expect(await counted(metricsA)).toEqual({ sent: 300, large: 1 });
    expect(await counted(metricsB)).toEqual({ received: 300 });
  });

  it("delivers the same notice sent again in one batch each time, so a watch taken and dropped twice ends dropped", async () => {
    const [a, b] = [await open(), await open()];
    const inB: boolean[] = [];
    const watch = a.broadcast<{ d: string; on: boolean }>("test.watch", () => undefined);
    b.broadcast<{ d: string; on: boolean }>("test.watch", (m) => inB.push(m.on));
    // A page that opens a device's live data, leaves, comes back and leaves again at once. The
    // first notice goes out alone; the other three wait for it and go in one statement, whose
    // identical notices PostgreSQL delivers only once (the last one lost: B would push on).
    for (const on of [true, false, true, false]) watch({ d: "/device/1/live", on });
    await waitUntil(() => inB.length >= 4, 3000, "four notices in B");
    expect(inB).toEqual([true, false, true, false]);
  });

  it("keeps a bounded queue: past it the oldest notices are dropped and the others told of a gap", async () => {
    const url = (database as NonNullable<typeof database>).url;
    const a = await startPostgresBus({ url, db, log: silent, connectTimeoutMs: 5000, maxQueue: 10 });
    buses.push(a);
    const b = await open();
    let gaps = 0;
    b.onGap(() => gaps++);
    const heard: number[] = [];
    const send = a.broadcast<number>("test.bounded", () => {});
    b.broadcast<number>("test.bounded", (n) => heard.push(n));
    for (let n = 0; n < 50; n++) send(n);
    await waitUntil(() => heard.includes(49), 5000, "the newest notice");
    expect(gaps).toBe(1);
    // The first went out at once; of the 49 queued behind it, the newest nine and the gap were kept.
    expect(heard).toEqual([0, 41, 42, 43, 44, 45, 46, 47, 48, 49]);
  });

  it("opens its connection again when the database drops it, and tells its own of the gap", async () => {
    const [a, b] = [await open(), await open()];
    let gaps = 0;
    b.onGap(() => gaps++);
    const heard: number[] = [];
    const send = a.broadcast<number>("test.gap", () => {});
    b.broadcast<number>("test.gap", (n) => heard.push(n));
    send(1);
    await waitUntil(() => heard.length === 1, 3000, "the first notice");
    // Every listening connection of the database is ended, as a database restart would.
    await db.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'ess-cluster-events' AND pid <> pg_backend_pid()",
    );
    await waitUntil(() => gaps > 0, 5000, "a gap after the connection was lost");
    send(2);
    await waitUntil(() => heard.includes(2), 5000, "a notice after the connection came back");
  });
});
