import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type ConsoleJobServices, consoleJobs } from "../../src/cluster/console-jobs.ts";
import { startLeasedJobs } from "../../src/cluster/leased-jobs.ts";
import type { Db } from "../../src/db/db.ts";
import { createOtaEngine } from "../../src/modules/ota/ota.engine.ts";
import type { MqttBus } from "../../src/mqtt/bus.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { openProcessPools } from "../helpers/process-pools.ts";
import { waitUntil } from "../helpers/reminders.ts";
import { TEST_DRIVER } from "../helpers/test-db.ts";

/**
 * A campaign paced in batches of two while three console processes run: the orders go out from
 * the one process that holds the `ota` lease, one batch at a time, and when that process is killed
 * another carries the campaign on — no batch sent twice, none left behind.
 */

const TTL = 3000;
const RENEW = 1000;
const SLACK = 1000;
const BATCH = 2;
const silent = { info() {}, warn() {}, error() {} };
const idle = async () => 0;
/** The console's other jobs, idle here: only the dispatcher is under test. */
const others: Omit<ConsoleJobServices, "ota"> = {
  presence: { sweep: async () => {} },
  detector: { sweep: idle, recover: idle, sweepEveryMs: 60_000, recoveryAfterMs: 60_000 },
  rollup: { recover: idle },
  partitions: { ensureAround: async () => {}, dropExpired: async () => [] },
};

let pools: Db[] = [];
let closeAll: () => Promise<unknown> = async () => {};
beforeAll(async () => {
  ({ pools, close: closeAll } = await openProcessPools(3));
});
afterAll(() => closeAll());

let running: { stop(options?: { release?: boolean }): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.map((j) => j.stop({ release: false })));
  running = [];
});

/** Orders published, by the process that published them. */
const orders: { process: string; id: number }[] = [];
/** The dispatcher's ticks (each reads the open campaigns), by process. */
const ticks: { process: string; at: number }[] = [];

function startProcess(name: string, pool: Db) {
  const db: Db = {
    ...pool,
    query: (text, params) => {
      if (/FROM ota_campaign\s+WHERE state IN/.test(text)) ticks.push({ process: name, at: performance.now() });
      return pool.query(text, params);
    },
  };
  const ota = engine(name, db, 100);
  const { ota: job } = consoleJobs(
    { ...others, ota },
    { presenceSweepMs: 60_000, energyRecoveryMs: 60_000, energyRecoveryAfterMs: 60_000, partitionUpkeepMs: 3_600_000 },
    silent,
  );
  const jobs = startLeasedJobs({ db, log: silent, ttlMs: TTL, renewMs: RENEW, stopTimeoutMs: 1000, holder: name }, { ota: job });
  running.push(jobs);
  return { name, jobs, pool };
}

/** A process's OTA engine, its orders recorded under the process's name. */
function engine(name: string, db: Db, tickMs: number) {
  const bus = {
    publish: async (_topic: string, payload: string) => {
      orders.push({ process: name, id: (JSON.parse(payload) as { id: number }).id });
    },
  } as unknown as MqttBus;
  return createOtaEngine({ db, bus, log: silent, baseUrl: () => "http://127.0.0.1/", options: { tickMs } });
}

/** A running campaign to `devices` online devices, batches of BATCH, none sent yet. */
async function campaign(db: Db, devices: number) {
  const file = await db.query<{ id: number }>(
    `INSERT INTO stored_file (tenant_id, name, size, sha256, crc32) VALUES (1, 'mcu.bin', 1, repeat('a', 64), '00000000') RETURNING id`,
  );
  const version = await db.query<{ id: number }>(
    `INSERT INTO firmware_version (tenant_id, type, version_code, version_name, file_id) VALUES (1, 3, $1, 'MCU', $2) RETURNING id`,
    [uniqueSerial("V"), file.rows[0]?.id],
  );
  const versionId = version.rows[0]?.id;
  const c = await db.query<{ id: number }>(
    `INSERT INTO ota_campaign (tenant_id, version_id, name, times, run_index, batch_size, batch_interval_s, state)
     VALUES (1, $1, 'paced', ARRAY[now() - interval '1 minute'], 0, $2, 0, 'running') RETURNING id`,
    [versionId, BATCH],
  );
  const campaignId = c.rows[0]?.id as number;
  for (let i = 0; i < devices; i++) {
    const d = await registerDevice(db, { sn: uniqueSerial("OTA"), phaseType: 2 });
    await db.query("UPDATE device SET online_status = 1, last_seen_at = now() WHERE id = $1", [d.id]);
    await db.query(
      `INSERT INTO device_upgrade (tenant_id, device_id, version_id, campaign_id, firmware_type, version_code)
       SELECT 1, $1, id, $2, 3, version_code FROM firmware_version WHERE id = $3`,
      [d.id, campaignId, versionId],
    );
  }
  const upgrades = async () =>
    (
      await db.query<{ id: number; request_id: number | null; attempts: number; status: number }>(
        "SELECT id, request_id, attempts, status FROM device_upgrade WHERE campaign_id = $1 ORDER BY id",
        [campaignId],
      )
    ).rows;
  /** The devices answer that their upgrade succeeded: the campaign's next batch may go. */
  const succeedInFlight = () =>
    db.query(
      `UPDATE device_upgrade SET status = 4, finished_at = now(), request_id = NULL, deadline_at = NULL
        WHERE campaign_id = $1 AND request_id IS NOT NULL`,
      [campaignId],
    );
  return { upgrades, succeedInFlight };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`an OTA campaign while three processes run, on ${TEST_DRIVER}`, () => {
  it("sends each batch once from the lease's holder, and goes on from another process when the holder is killed", {
    timeout: 10 * TTL,
  }, async () => {
    const c = await campaign(pools[0] as Db, 4 * BATCH);
    const processes = ["a", "b", "c"].map((name, i) => startProcess(name, pools[i] as Db));
    await Promise.all(processes.map((p) => p.jobs.firstTry));
    await waitUntil(() => orders.length >= BATCH, 2000, "the first batch sent");
    // Ten ticks and more of each process: still one batch, all from one process.
    await sleep(1500);
    expect(orders).toHaveLength(BATCH);
    const holder = orders[0]?.process as string;
    expect(orders.every((o) => o.process === holder)).toBe(true);
    expect(new Set(ticks.map((t) => t.process))).toEqual(new Set([holder]));
    expect((await c.upgrades()).filter((u) => u.request_id !== null)).toHaveLength(BATCH);

    // The second batch, then the holder is killed with the third still to go.
    await c.succeedInFlight();
    await waitUntil(() => orders.length >= 2 * BATCH, 2000, "the second batch sent");
    const killed = processes.find((p) => p.name === holder) as (typeof processes)[number];
    const token = killed.jobs.leases.get("ota")?.token() as number;
    await killed.jobs.stop({ release: false });
    const killedAt = performance.now();
    await c.succeedInFlight();
    await waitUntil(() => orders.length >= 3 * BATCH, TTL + RENEW + 2 * SLACK, "the third batch sent by another process");
    expect(performance.now() - killedAt).toBeLessThanOrEqual(TTL + RENEW + 2 * SLACK);
    await sleep(1000);
    expect(orders.slice(0, 2 * BATCH).every((o) => o.process === holder)).toBe(true);
    const after = orders.slice(2 * BATCH);
    expect(after).toHaveLength(BATCH);
    expect(new Set(after.map((o) => o.process)).size).toBe(1);
    expect(after[0]?.process).not.toBe(holder);
    // After the kill, one other process ticks, and the killed one no more.
    expect(new Set(ticks.filter((t) => t.at > killedAt).map((t) => t.process))).toEqual(new Set([after[0]?.process]));

    // The killed process's dispatcher had only been held up: it carries on (twice as fast) under
    // its old token, and claims nothing; the last batch goes once, from the new holder.
    const stale = engine(holder, killed.pool, 50);
    stale.start({ job: "ota", token });
    running.push(stale);
    await sleep(300);
    await c.succeedInFlight();
    await waitUntil(() => orders.length >= 4 * BATCH, 2000, "the last batch sent");
    await sleep(500);
    expect(orders.slice(2 * BATCH).map((o) => o.process)).toEqual(orders.slice(2 * BATCH).map(() => after[0]?.process));
    // Every device got exactly one order.
    const upgrades = await c.upgrades();
    expect(upgrades.map((u) => u.attempts)).toEqual(upgrades.map(() => 1));
    expect(new Set(orders.map((o) => o.id)).size).toBe(4 * BATCH);
  });
});
