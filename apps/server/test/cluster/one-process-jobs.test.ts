import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type LeasedJob, type LeasedRun, startLeasedJob } from "../../src/cluster/job-lease.ts";
import type { Db } from "../../src/db/db.ts";
import { createMetrics } from "../../src/observability/metrics.ts";
import { failingDb } from "../helpers/failing-db.ts";
import { waitUntil } from "../helpers/reminders.ts";
import { createTestDb, TEST_DRIVER } from "../helpers/test-db.ts";

/**
 * Several holders (as several console processes would be) contend for one job's lease on one
 * database, with a short ttl and real timers; each records when its job ran, so the tests can
 * show that the runs never overlap and how fast a job moves to another holder.
 */

// Long enough that a loaded two-core machine (the whole suite running beside this file, event
// loops stalling for hundreds of milliseconds) does not stall a holder past its safety margin of
// RENEW / 2; 900/300 failed now and then beside a single other test file.
const TTL = 3000;
const RENEW = 1000;
/** Scheduling and statement latency allowed on a loaded machine on top of the designed bounds. */
const SLACK = 1000;
const silent = { info() {}, warn() {}, error() {} };

interface Run {
  holder: string;
  token: number;
  from: number;
  to: number | null;
}

let db: Db;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(() => db?.close());

let jobNo = 0;
let holders: LeasedJob<LeasedRun>[] = [];
afterEach(async () => {
  await Promise.all(holders.map((h) => h.stop({ release: false })));
  holders = [];
});

/** A fresh job name and a way to add contenders for it; each contender's runs go to `runs`. */
function contest() {
  const job = `test-job-${++jobNo}`;
  const runs: Run[] = [];
  const join = (holder: string, options: { via?: Db; metrics?: ReturnType<typeof createMetrics> } = {}) => {
    const lease = startLeasedJob({
      db: options.via ?? db,
      job,
      holder,
      ttlMs: TTL,
      renewMs: RENEW,
      stopTimeoutMs: 1000,
      log: silent,
      ...(options.metrics ? { metrics: options.metrics } : {}),
      start: (signal, token) => {
        const run: Run = { holder, token, from: performance.now(), to: null };
        runs.push(run);
        return {
          // A job takes a moment to wind down; its run ends only when that is done.
          stop: async () => {
            expect(signal.aborted).toBe(true);
            await new Promise((resolve) => setTimeout(resolve, 10));
            run.to = performance.now();
          },
        };
      },
    });
    holders.push(lease);
    return lease;
  };
  const running = () => runs.filter((r) => r.to === null);
  const leader = () => {
    const open = running();
    return open.length === 1 ? (open[0] as Run) : null;
  };
  return { job, runs, join, running, leader };
}

function expectNoOverlap(runs: readonly Run[]) {
  const ordered = [...runs].sort((a, b) => a.from - b.from);
  for (let i = 1; i < ordered.length; i++) {
    const before = ordered[i - 1] as Run;
    const after = ordered[i] as Run;
    expect(before.to, `${before.holder}'s run still going when ${after.holder}'s began`).not.toBeNull();
    expect(before.to as number).toBeLessThanOrEqual(after.from);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`jobs that run in one process, on ${TEST_DRIVER}`, () => {
  it("one of three contenders runs the job and keeps its token while it renews", { timeout: 8 * TTL }, async () => {
    const c = contest();
    const metrics = [createMetrics(), createMetrics(), createMetrics()];
    const all = ["a", "b", "c"].map((name, i) => c.join(name, { metrics: metrics[i] }));
    await waitUntil(() => c.leader() !== null, 2000, "a leader");
    // Several ttls: the leader renews without losing the lease, nobody else starts.
    await sleep(3 * TTL);
    expect(c.runs).toHaveLength(1);
    const run = c.runs[0] as Run;
    expect(run.to).toBeNull();
    const leading = all.filter((h) => h.token() !== null);
    expect(leading.map((h) => h.holder)).toEqual([run.holder]);
    expect(leading[0]?.token()).toBe(run.token);
    expect(leading[0]?.current()).not.toBeNull();
    const gauges = await Promise.all(
      metrics.map(async (m) => (await m.jobLeader.get()).values.find((v) => v.labels.job === c.job)?.value),
    );
    expect(gauges.filter((g) => g === 1)).toHaveLength(1);
    expect(gauges.filter((g) => g === 0)).toHaveLength(2);
  });

  it("a holder killed without releasing is replaced within ttl + one renew interval", { timeout: 8 * TTL }, async () => {
    const c = contest();
    const byName = new Map(["a", "b", "c"].map((name) => [name, c.join(name)]));
    await waitUntil(() => c.leader() !== null, 2000, "a leader");
    await sleep(RENEW * 2);
    const first = c.leader() as Run;
    const killedAt = performance.now();
    // What a killed process leaves: its lease in the table, no release.
    await byName.get(first.holder)?.stop({ release: false });
    await waitUntil(() => c.leader() !== null, TTL + RENEW + 2000, "a new leader");
    const next = c.leader() as Run;
    expect(next.holder).not.toBe(first.holder);
    const took = next.from - killedAt;
    // Not before its lease expired (last renewed about one interval, at most, before the kill)…
    expect(took).toBeGreaterThanOrEqual(TTL / 2);
    // …and no later than the ttl plus one renew interval.
    expect(took).toBeLessThanOrEqual(TTL + RENEW + SLACK);
    expect(next.token).toBe(first.token + 1);
    expectNoOverlap(c.runs);
  });

  it("a clean stop hands the job over at once, not after the ttl", { timeout: 8 * TTL }, async () => {
    const c = contest();
    const byName = new Map(["a", "b"].map((name) => [name, c.join(name)]));
    await waitUntil(() => c.leader() !== null, 2000, "a leader");
    const first = c.leader() as Run;
    await byName.get(first.holder)?.stop();
    const stoppedAt = performance.now();
    expect(first.to).not.toBeNull();
    await waitUntil(() => c.leader() !== null, 2000, "a new leader");
    const next = c.leader() as Run;
    expect(next.holder).not.toBe(first.holder);
    expect(next.from - stoppedAt).toBeLessThanOrEqual(RENEW + SLACK);
    expect(next.from - stoppedAt).toBeLessThan(TTL);
    expect(next.token).toBe(first.token + 1);
    expectNoOverlap(c.runs);
  });

  it("the fencing token grows on each takeover, and runs never overlap", { timeout: 8 * TTL }, async () => {
    const c = contest();
    const byName = new Map(["a", "b", "c"].map((name) => [name, c.join(name)]));
    await waitUntil(() => c.leader() !== null, 2000, "a leader");
    // Three hand-overs: a kill, a clean stop, and the leader coming back and the other stopping.
    for (const how of ["kill", "stop", "stop"] as const) {
      const current = c.leader() as Run;
      const before = c.runs.length;
      await byName.get(current.holder)?.stop({ release: how === "stop" });
      // The stopped holder comes back as a new process would, under a new id.
      const again = `${current.holder}'`;
      byName.set(again, c.join(again));
      await waitUntil(() => c.runs.length > before && c.leader() !== null, TTL + RENEW + 2000, `a leader after a ${how}`);
    }
    const tokens = c.runs.map((r) => r.token);
    expect(tokens).toHaveLength(4);
    for (let i = 1; i < tokens.length; i++) expect(tokens[i]).toBeGreaterThan(tokens[i - 1] as number);
    expectNoOverlap(c.runs);
    const { rows } = await db.query<{ token: number }>("SELECT token FROM job_lease WHERE job = $1", [c.job]);
    expect(rows[0]?.token).toBe(tokens.at(-1));
  });

  it("a database outage longer than the ttl stops the holder's job; another holder takes over", {
    timeout: 8 * TTL,
  }, async () => {
    const c = contest();
    const outage = failingDb(/job_lease/);
    const a = c.join("a", { via: outage.wrap(db) });
    await a.firstTry;
    expect(c.leader()?.holder).toBe("a");
    c.join("b");
    await sleep(RENEW);
    const cutAt = performance.now();
    outage.set(true);
    await waitUntil(() => c.runs[0]?.to != null, TTL + 2000, "a's job stopped");
    const first = c.runs[0] as Run;
    // Stopped within the ttl of its last renewal (itself no later than the cut).
    expect((first.to as number) - cutAt).toBeLessThanOrEqual(TTL + SLACK);
    expect(a.token()).toBeNull();
    await waitUntil(() => c.leader()?.holder === "b", TTL + RENEW + 2000, "b leading");
    expect(c.leader()?.token).toBe(first.token + 1);
    // The database answers a again: b keeps the job.
    outage.set(false);
    await sleep(2 * RENEW);
    expect(c.leader()?.holder).toBe("b");
    expect(a.token()).toBeNull();
    expect(outage.refused()).toBeGreaterThan(0);
    expectNoOverlap(c.runs);
  });

  it("a lone holder stops its job during an outage and takes it up again, under a new token, after it", {
    timeout: 8 * TTL,
  }, async () => {
    const c = contest();
    const outage = failingDb(/job_lease/);
    const a = c.join("a", { via: outage.wrap(db) });
    await a.firstTry;
    const first = c.leader() as Run;
    outage.set(true);
    await waitUntil(() => first.to !== null, TTL + 2000, "the job stopped");
    // Past the ttl: the database has let the lease expire too.
    await sleep(TTL);
    outage.set(false);
    await waitUntil(() => c.leader() !== null, RENEW + 2000, "the job started again");
    expect(c.leader()?.token).toBe(first.token + 1);
    expectNoOverlap(c.runs);
  });
});
