import { KEY_QUANTITIES } from "@ess/domain";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CONSOLE_JOBS, type ConsoleJob, type ConsoleJobServices, consoleJobs } from "../../src/cluster/console-jobs.ts";
import { type LeasedJobs, startLeasedJobs } from "../../src/cluster/leased-jobs.ts";
import type { Db } from "../../src/db/db.ts";
import { createTranslator } from "../../src/i18n/translator.ts";
import { createAlarmDetector } from "../../src/modules/faults/alarm-detector.ts";
import { createFaultCache } from "../../src/modules/faults/fault-cache.ts";
import { createOtaEngine } from "../../src/modules/ota/ota.engine.ts";
import { createEnergyRollup } from "../../src/modules/telemetry/energy-rollup.ts";
import { createPartitionKeeper } from "../../src/modules/telemetry/partitions.ts";
import { createPresence } from "../../src/modules/telemetry/presence.ts";
import { type StoredFrame, writeFrames } from "../../src/modules/telemetry/telemetry-writer.ts";
import type { MqttBus } from "../../src/mqtt/bus.ts";
import { createMetrics } from "../../src/observability/metrics.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { openProcessPools } from "../helpers/process-pools.ts";
import { waitUntil } from "../helpers/reminders.ts";
import { TEST_DRIVER } from "../helpers/test-db.ts";

/**
 * Three console processes on one database, each with its own services and its own set of the
 * console's leased jobs (on PostgreSQL each with its own connection pool, as separate processes
 * have): every job runs in exactly one of them, and a process that dies or stops hands its jobs
 * to the others. Each call a job makes is recorded with the process that made it.
 */

// As in one-process-jobs.test.ts: long enough for a loaded two-core machine.
const TTL = 3000;
const RENEW = 1000;
const SLACK = 1000;
const silent = { info() {}, warn() {}, error() {} };
const NAMES = ["a", "b", "c"] as const;

interface Call {
  process: string;
  job: ConsoleJob;
  at: number;
}

let pools: Db[] = [];
let closeAll: () => Promise<unknown> = async () => {};
beforeAll(async () => {
  const opened = await openProcessPools(NAMES.length);
  pools = opened.pools;
  closeAll = opened.close;
});
afterAll(() => closeAll());

let running: { name: string; jobs: LeasedJobs; metrics: ReturnType<typeof createMetrics> }[] = [];
afterEach(async () => {
  await Promise.all(running.map((p) => p.jobs.stop({ release: false })));
  running = [];
});

const calls: Call[] = [];
const otaRuns: { process: string; from: number; to: number | null }[] = [];

/** One console process: its own services over its own pool, each call recorded, and its leases. */
async function startProcess(name: string, db: Db) {
  const translator = await createTranslator();
  const record =
    <A extends unknown[], R>(job: ConsoleJob, fn: (...args: A) => Promise<R>) =>
    (...args: A) => {
      calls.push({ process: name, job, at: performance.now() });
      return fn(...args);
    };
  const ota = createOtaEngine({
    db,
    bus: { publish: async () => {} } as unknown as MqttBus,
    log: silent,
    baseUrl: () => "http://127.0.0.1/",
    options: { tickMs: 200 },
  });
  const presence = createPresence({ db, log: silent, offlineAfterS: 3600 });
  const detector = createAlarmDetector({
    db,
    catalogue: createFaultCache(db, translator),
    log: silent,
    clearHoldMs: 0,
    recoveryAfterMs: 300,
    onOpened: () => {},
  });
  const rollup = createEnergyRollup({ db, log: silent, flushMs: 60_000 });
  const partitions = createPartitionKeeper(db, { retentionDays: 400 });
  const services: ConsoleJobServices = {
    ota: {
      start(lease) {
        otaRuns.push({ process: name, from: performance.now(), to: null });
        calls.push({ process: name, job: "ota", at: performance.now() });
        ota.start(lease);
      },
      async stop() {
        await ota.stop();
        const run = otaRuns.findLast((r) => r.process === name);
        if (run) run.to = performance.now();
      },
    },
    presence: { sweep: record("presence-sweep", presence.sweep) },
    detector: {
      sweep: record("alarm-sweeps", detector.sweep),
      recover: record("alarm-sweeps", detector.recover),
      sweepEveryMs: detector.sweepEveryMs,
      recoveryAfterMs: detector.recoveryAfterMs,
    },
    rollup: { recover: record("energy-recovery", rollup.recover) },
    partitions: { ensureAround: record("partitions", partitions.ensureAround), dropExpired: partitions.dropExpired },
  };
  const metrics = createMetrics();
  const times = { presenceSweepMs: 200, energyRecoveryMs: 200, energyRecoveryAfterMs: 0, partitionUpkeepMs: 300 };
  const jobs = startLeasedJobs(
    { db, log: silent, metrics, ttlMs: TTL, renewMs: RENEW, stopTimeoutMs: 1000, holder: name },
    consoleJobs(services, times, silent),
  );
  const entry = { name, jobs, metrics };
  running.push(entry);
  await jobs.firstTry;
  return entry;
}

/** The processes that made calls for `job` since `since` (for the OTA dispatcher: that ran it). */
function runners(job: ConsoleJob, since: number): Set<string> {
  if (job === "ota") return new Set(otaRuns.filter((r) => r.to === null || r.to >= since).map((r) => r.process));
  return new Set(calls.filter((c) => c.job === job && c.at >= since).map((c) => c.process));
}

/** The processes that ran `job` since `since`, in the order they took it: one entry per hand-over plus one. */
function sequence(job: ConsoleJob, since: number): string[] {
  const order: string[] = [];
  for (const c of calls.filter((c) => c.job === job && c.at >= since)) if (order.at(-1) !== c.process) order.push(c.process);
  return order;
}

async function leaderGauges(p: (typeof running)[number]) {
  const { values } = await p.metrics.jobLeader.get();
  return new Map(values.map((v) => [String(v.labels.job), v.value]));
}

/** A batch of readings stored with its note, as ingest stores it, whose process then died before merging its energy. */
async function abandonedBatch(db: Db) {
  const device = await registerDevice(db, { sn: uniqueSerial("LEASE"), phaseType: 2, timeZone: "UTC" });
  const ts = Date.now() - 60_000;
  const kq: (number | null)[] = KEY_QUANTITIES.map((k) => (k.column === "pv_today" ? 7 : k.column === "pv_total" ? 70 : null));
  const frame: StoredFrame = {
    device: { id: device.id, sn: device.sn, tenantId: 1, timeZone: "UTC", phaseType: 2 },
    ts,
    seq: 1,
    receivedAt: ts,
    kq,
    blocks: Buffer.alloc(0),
    invalid: null,
  };
  await createPartitionKeeper(db, { retentionDays: 400 }).ensureAround();
  const batchId = crypto.randomUUID();
  await db.transaction((tx) => writeFrames(tx, [frame], { batchId }));
  const merged = async () =>
    (await db.query("SELECT 1 FROM device_energy_day WHERE device_id = $1 AND pv = 7", [device.id])).rowCount === 1 &&
    (await db.query("SELECT 1 FROM telemetry_rollup_pending WHERE id = $1", [batchId])).rowCount === 0;
  return { merged };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`the console's periodic jobs across three processes, on ${TEST_DRIVER}`, () => {
  it("runs each job in exactly one process, says so in ess_job_leader, and merges a dead process's energy", {
    timeout: 8 * TTL,
  }, async () => {
    const since = performance.now();
    for (const [i, name] of NAMES.entries()) await startProcess(name, pools[i] as Db);
    const energy = await abandonedBatch(pools[1] as Db);
    await sleep(2 * RENEW);
    for (const job of CONSOLE_JOBS) {
      const who = runners(job, since);
      expect([...who], `${job} ran in`).toHaveLength(1);
      const gauges = await Promise.all(running.map(async (p) => (await leaderGauges(p)).get(job)));
      expect(
        gauges.filter((g) => g === 1),
        `${job} leaders`,
      ).toHaveLength(1);
      expect(running[gauges.indexOf(1)]?.name).toBe([...who][0]);
    }
    // Nobody restarted: the note the dead process left is merged by the energy-recovery leader.
    await waitUntil(energy.merged, 2000, "the abandoned batch's energy merged");
  });

  it("hands the jobs of a process killed without releasing them to another within the ttl, never running one twice", {
    timeout: 10 * TTL,
  }, async () => {
    const since = performance.now();
    for (const [i, name] of NAMES.entries()) await startProcess(name, pools[i] as Db);
    await sleep(RENEW);
    const victim = running.find((p) => [...p.jobs.leases.values()].some((l) => l.token() !== null));
    if (!victim) throw new Error("no process leads any job");
    const led = CONSOLE_JOBS.filter((job) => victim.jobs.leases.get(job)?.token() !== null);
    const others = CONSOLE_JOBS.filter((job) => !led.includes(job));
    const before = new Map(others.map((job) => [job, [...runners(job, since)][0]]));
    const killedAt = performance.now();
    await victim.jobs.stop({ release: false });
    const stoppedAt = performance.now();
    const took = new Map<ConsoleJob, number>();
    await waitUntil(
      () => {
        for (const job of led) {
          if (took.has(job)) continue;
          const next = calls.find((c) => c.job === job && c.at >= killedAt && c.process !== victim.name);
          if (next) took.set(job, next.at - killedAt);
        }
        return took.size === led.length;
      },
      TTL + RENEW + 2 * SLACK,
      "every job of the killed process taken over",
    );
    for (const job of led) {
      // Not before the killed process's lease expired, and within the ttl plus one renew interval.
      expect(took.get(job) as number, job).toBeGreaterThanOrEqual(TTL / 2);
      expect(took.get(job) as number, job).toBeLessThanOrEqual(TTL + RENEW + SLACK);
      // One hand-over: the killed process, then one other, never the two at once nor back again.
      const order = sequence(job, since);
      expect(order, job).toHaveLength(2);
      expect(order[0], job).toBe(victim.name);
      expect(
        calls.filter((c) => c.job === job && c.process === victim.name && c.at > stoppedAt),
        job,
      ).toEqual([]);
    }
    // The jobs other processes led stayed where they were.
    for (const job of others) expect([...runners(job, since)], job).toEqual([before.get(job)]);
    expect([...(await leaderGauges(victim)).values()].every((g) => g === 0)).toBe(true);
    // The new energy-recovery leader merges what is left from now on.
    const energy = await abandonedBatch(pools[0] as Db);
    await waitUntil(energy.merged, 2000, "a batch left after the kill merged");
    const ota = otaRuns.filter((r) => r.from >= since);
    for (let i = 1; i < ota.length; i++) expect(ota[i - 1]?.to as number).toBeLessThanOrEqual(ota[i]?.from as number);
  });

  it("hands the jobs of a process that stops cleanly to another at once, not after the ttl", {
    timeout: 8 * TTL,
  }, async () => {
    for (const [i, name] of NAMES.slice(0, 2).entries()) await startProcess(name, pools[i] as Db);
    await sleep(RENEW);
    const leader = running.find((p) => p.jobs.leases.get("ota")?.token() !== null);
    if (!leader) throw new Error("nobody runs the OTA dispatcher");
    const other = running.find((p) => p !== leader) as (typeof running)[number];
    const led = CONSOLE_JOBS.filter((job) => leader.jobs.leases.get(job)?.token() !== null);
    await leader.jobs.stop();
    const stoppedAt = performance.now();
    await waitUntil(
      () => led.every((job) => other.jobs.leases.get(job)?.token() !== null),
      RENEW + 2 * SLACK,
      "the other process leading",
    );
    expect(performance.now() - stoppedAt).toBeLessThan(TTL);
    await sleep(RENEW);
    for (const job of led) expect([...runners(job, stoppedAt)], job).toEqual([other.name]);
  });
});
