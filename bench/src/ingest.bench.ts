/**
 * Telemetry ingest through a real broker into PostgreSQL, beside what each of the two can do on
 * its own. Full three-phase frames (549 values, binary) are published at QoS 1 by devices in a
 * worker thread to Mosquitto; the console's ingest (in this process: deferred acknowledgements,
 * COPY into the partitioned history, latest state, daily energy) stores them. Prints, in one run:
 *
 *   - broker alone: frames/s from the publishers to a consumer that only counts them, unthrottled
 *     and at the highest fixed rate it keeps up with (broker-alone.ts)
 *   - COPY alone: rows/s of the same history rows copied straight into PostgreSQL
 *   - the pipeline: frames/s stored with unthrottled publishers, then at fixed rates around that
 *     figure; the highest rate it keeps up with is the sustained rate, printed with its p50/p99
 *     publish-to-queryable latency (frame time to commit) and its ratio to the slower of the two
 *     above; and bytes stored per data point.
 *
 *   npm run ingest -w @ess/bench -- [seconds=10] [devices=2000] [fixed-rate: default a ladder] [processes=1]
 *
 * With processes (or BENCH_PROCESSES) above 1, the same run then starts that many console
 * processes less one beside its own (the real server entry point, console-processes.ts), on the
 * same database, broker and shared subscription, runs the ladder again and prints the combined
 * figures beside the single-process ones; stored frames then come from each console's /metrics
 * and latencies from the database (ingest-probes.ts), for both ladders.
 * The broker is a Mosquitto of the bench's own, configured as docs/device-protocol.md asks
 * (mosquitto.ts), or the one at BENCH_MQTT_URL; then BENCH_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres; a fresh database is made and dropped). Loopback only.
 * ESS_ENERGY_ROLLUP_MS sets the console's daily-energy interval (default 60 s, as in production).
 * BENCH_PROFILE=<file> writes a CPU profile of this process's main thread (the bench's own
 * console; the publishers are a thread of their own) over the first fixed-rate step, and prints
 * the functions with the most self time.
 */
import { randomBytes } from "node:crypto";
import { cpus, loadavg } from "node:os";
import { FRAME_HEADER_BYTES, packZeroRuns, TELEMETRY_REGISTERS } from "@ess/contracts";
import { loadConfig } from "@ess/server/internal/config/config.ts";
import type { Db } from "@ess/server/internal/db/db.ts";
import { openPostgres } from "@ess/server/internal/db/postgres.driver.ts";
import { createScratchDatabase } from "@ess/server/internal/db/scratch-database.ts";
import { HISTORY_COLUMNS, HISTORY_TYPES } from "@ess/server/internal/modules/telemetry/telemetry-writer.ts";
import { type Runtime, startRuntime } from "@ess/server/internal/runtime.ts";
import { brokerAlone } from "./broker-alone.ts";
import { type ConsoleProcesses, startConsoleProcesses } from "./console-processes.ts";
import { type CpuSpent, cpuMeter } from "./cpu-cost.ts";
import { startCpuProfile } from "./cpu-profile.ts";
import { simulatedThreePhaseFrames } from "./frames.ts";
import { crossProcessProbe, inProcessProbe, type StoreProbe } from "./ingest-probes.ts";
import { startBenchMosquitto } from "./mosquitto.ts";
import { runPublishers } from "./publishers.ts";
import { highestKept } from "./rate-ladder.ts";

const seconds = Number(process.argv[2] ?? 10);
const deviceCount = Number(process.argv[3] ?? 2000);
const fixedRate = Number(process.argv[4] ?? 0);
const processes = Math.max(1, Math.round(Number(process.argv[5] ?? process.env.BENCH_PROCESSES ?? 1)));
const ownBroker = process.env.BENCH_MQTT_URL ? null : await startBenchMosquitto();
const brokerUrl = process.env.BENCH_MQTT_URL ?? ownBroker?.url ?? "mqtt://127.0.0.1:1883";
const serverUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const run = `${process.pid.toString(36)}${randomBytes(2).toString("hex")}`;
const simulated = await simulatedThreePhaseFrames();
const frames = { binary: simulated[0] as Buffer };
const VALUES = TELEMETRY_REGISTERS.three.length;
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const say = (line: string) => process.stdout.write(`${line}\n`);
/** The machine is shared: each figure is printed with the 1-minute load average at its end. */
const load = () => `  [load ${loadavg()[0]?.toFixed(1)}]`;
const serials = Array.from({ length: deviceCount }, (_, i) => `B${run}${String(i).padStart(5, "0")}`.toUpperCase());
const connectionsOf = (prefix: string) =>
  Array.from({ length: 8 }, (_, c) => ({ clientId: `${prefix}-${run}-${c}`, serials: serials.filter((_, i) => i % 8 === c) }));

/** PostgreSQL alone: the history rows the pipeline writes, by COPY in batches of 2,000. */
async function copyAlone(url: string, deviceIds: number[]): Promise<number> {
  const db = await openPostgres({ url, poolSize: 2, connectTimeoutMs: 5000 });
  // A table shaped like one history partition (same columns and unique index), so the history
  // itself holds only what the pipeline stored.
  await db.exec(
    "CREATE TABLE copy_probe (LIKE telemetry_history INCLUDING DEFAULTS); CREATE UNIQUE INDEX ON copy_probe (device_id, ts)",
  );
  const columns = HISTORY_COLUMNS;
  const blocks = packZeroRuns(frames.binary.subarray(FRAME_HEADER_BYTES));
  const t0 = Date.now() - 3_600_000;
  const batch = (b: number) =>
    Array.from({ length: 2000 }, (_, i) =>
      columns.map((c) =>
        c === "device_id"
          ? deviceIds[i % deviceIds.length]
          : c === "ts"
            ? t0 - (b * 2000 + i) * 7
            : c === "seq"
              ? i
              : c === "blocks"
                ? blocks
                : c === "invalid"
                  ? null
                  : i % 97,
      ),
    );
  // Rows are made beforehand; encoding them (COPY's binary format, as the pipeline writes) is
  // timed, as the pipeline pays it too.
  const prepared = Array.from({ length: 40 }, (_, b) => batch(b));
  let rowsCopied = 0;
  const started = performance.now();
  for (let b = 0; b < prepared.length && performance.now() - started < Math.min(10, seconds) * 1000; b++) {
    rowsCopied += await db.copyRows("copy_probe", columns, prepared[b] as unknown[][], HISTORY_TYPES);
  }
  const rate = rowsCopied / ((performance.now() - started) / 1000);
  await db.query("DROP TABLE copy_probe");
  await db.close();
  return rate;
}

/** The devices publishing to the console's topics, at `rate` frames/s (0: as fast as they can). */
const devicesJob = (rate: number) => ({
  url: brokerUrl,
  connections: connectionsOf("dev"),
  topic: (sn: string) => `ess/v1/${sn}/telemetry`,
  payload: frames.binary,
  binaryClock: true,
  window: 200,
  rate,
});

let profileFile = process.env.BENCH_PROFILE;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pct = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;

/**
 * The pipeline: publishers → Mosquitto → the consoles' ingest → PostgreSQL. `consolePids`: the
 * console processes besides the bench's own, whose CPU counts as the console's too.
 */
async function pipeline(db: Db, probe: StoreProbe, rate: number, consolePids: readonly number[]) {
  const job = devicesJob(rate);
  await runPublishers({ ...job, durationMs: 1000 }); // warm-up
  await sleep(1000);
  const stopLatencies = await probe.latencies();
  const stopMeter = await cpuMeter(db, {
    consolePids,
    exceptBackends: probe.backends,
    ...(ownBroker ? { brokerPid: ownBroker.pid } : {}),
  })();
  const before = await probe.stored();
  const stopProfile = profileFile && rate > 0 ? await startCpuProfile(profileFile) : null;
  if (stopProfile) profileFile = undefined;
  const t0 = performance.now();
  const sent = await runPublishers({ ...job, durationMs: seconds * 1000 });
  const elapsed = (performance.now() - t0) / 1000;
  if (stopProfile) say(`CPU profile of the console's thread at ${fmt(rate)} frames/s:\n${(await stopProfile(30)).join("\n")}`);
  const storedInWindow = (await probe.stored()) - before;
  // Wait for the tail so latencies include the last frames.
  for (let i = 0; i < 50 && (await probe.queued()) > 0; i++) await sleep(100);
  await sleep(500);
  const latencies = (await stopLatencies()).sort((a, b) => a - b);
  const cpu = await stopMeter();
  const stored = Math.max(1, (await probe.stored()) - before);
  const own = probe.ownLatencies?.().sort((a, b) => a - b);
  return {
    rate: storedInWindow / elapsed,
    published: sent.acked / elapsed,
    p50: pct(latencies, 50),
    p99: pct(latencies, 99),
    // The bench's own console's frames timed exactly, beside a latency read from the database.
    own: own ? ` (the bench's own console, exactly: p50 ${fmt(pct(own, 50))} ms, p99 ${fmt(pct(own, 99))} ms)` : "",
    ownP99: own ? pct(own, 99) : Number.NaN,
    // CPU ms per 1,000 frames stored (the tail included), of the consoles and of PostgreSQL.
    consolePer1000: (cpu.consoleMs * 1000) / stored,
    postgresPer1000: (cpu.postgresMs * 1000) / stored,
    cores: coresLine(cpu),
  };
}

/**
 * Where the machine's cores went during a step, each part in % of one core: what decides whether
 * a cheaper pipeline can go faster here, since the publishers and the broker share the cores.
 */
function coresLine(cpu: CpuSpent) {
  const m = cpu.machine;
  const share = (ms: number) => `${Math.round((ms * 100) / m.wallMs)} %`;
  const known =
    cpu.consoleMs + cpu.postgresMs + m.restOfProcessMs + (Number.isNaN(m.brokerMs) ? 0 : m.brokerMs) + m.postgresBackgroundMs;
  return [
    `console ${share(cpu.consoleMs)}`,
    `publishers and the rest of the bench's process ${share(m.restOfProcessMs)}`,
    ...(Number.isNaN(m.brokerMs) ? [] : [`broker ${share(m.brokerMs)}`]),
    `PostgreSQL backends ${share(cpu.postgresMs)}, its background processes ${share(m.postgresBackgroundMs)}`,
    `other processes and kernel threads ${share(Math.max(0, m.busyMs - known))}`,
    `idle ${share(m.idleMs)} (of ${Math.round(((m.busyMs + m.idleMs) * 100) / m.wallMs)} %)`,
  ].join(", ");
}
type Step = Awaited<ReturnType<typeof pipeline>>;
const cpuLine = (r: Step) =>
  `CPU per 1,000 frames: console ${fmt(r.consolePer1000)} ms, PostgreSQL ${fmt(r.postgresPer1000)} ms\n    cores: ${r.cores}`;

/** Waits until the broker's queue for the consoles is empty: nothing stored for a second. */
async function drained(probe: StoreProbe) {
  let last = await probe.stored();
  for (let i = 0; i < 60; i++) {
    await sleep(1000);
    const now = await probe.stored();
    if (now === last) return;
    last = now;
  }
}

/**
 * A fleet that has been running: every device reports (to every console measured: each keeps its
 * own directory and reported-state memory) before anything is measured.
 */
async function warmUp(probe: StoreProbe, tag: string) {
  const warm = performance.now();
  const before = await probe.stored();
  const sent = await runPublishers({ ...devicesJob(0), rate: 5000, durationMs: Math.ceil((deviceCount * 1.2) / 5) });
  // Until everything published is stored: first readings of a device cost more (its latest state,
  // presence and firmware versions are written the first time), so batches can take seconds.
  for (let i = 0; i < 600 && (await probe.stored()) - before < sent.acked; i++) await sleep(500);
  say(`${tag}warm-up: every device reported at least once (${((performance.now() - warm) / 1000).toFixed(0)} s)${load()}`);
}

/**
 * The unthrottled run, then the sustained rate: the highest fixed rate the pipeline keeps up with
 * (stores ≥ 97 % of it as it arrives, p99 under 2 s). The unthrottled figure is only a start: with
 * the broker's queue full the pipeline stores less than it sustains, so the ladder (rate-ladder.ts)
 * starts at four fifths of it and climbs, six rates at most.
 */
async function ladder(db: Db, probe: StoreProbe, consolePids: readonly number[], tag: string, slower: number) {
  const full = await pipeline(db, probe, 0, consolePids);
  say(
    `${tag}pipeline, publishers unthrottled:           ${fmt(full.rate)} frames/s stored (broker took ${fmt(full.published)}/s)${load()}`,
  );
  say(
    `${tag}  latency with the broker's queue full:     p50 ${fmt(full.p50)} ms, p99 ${fmt(full.p99)} ms${full.own}; ${cpuLine(full)}`,
  );
  const start = fixedRate > 0 ? fixedRate : Math.max(1000, Math.round((full.rate * 0.8) / 500) * 500);
  const best = await highestKept(start, fixedRate > 0 ? 1 : 6, async (offered) => {
    await drained(probe);
    const r = await pipeline(db, probe, offered, consolePids);
    // Kept up: everything the publishers sent was stored as it came (p99 under 2 s). On a loaded
    // machine the publishers themselves may fall short of the rate; that is printed, and the
    // sustained rate is then what they did publish.
    // Read from the database, p99 misses the older frames of a backlog (ingest-probes.ts), so the
    // bench's own console's exact p99 must be under 2 s as well.
    const kept = r.rate >= r.published * 0.97 && r.p99 < 2000 && !(r.ownP99 >= 2000);
    const short = r.published < offered * 0.9 ? "  (publishers short of the rate)" : "";
    say(
      `${tag}pipeline at a fixed ${fmt(offered).padStart(6)} frames/s:     published ${fmt(r.published)}/s, stored ${fmt(r.rate)}/s, p50 ${fmt(r.p50)} ms, p99 ${fmt(r.p99)} ms${kept ? "" : "  (not kept up)"}${short}${load()}\n    ${r.own ? `${r.own.trim()}; ` : ""}${cpuLine(r)}`,
    );
    return { ...r, kept };
  });
  const sustained = best ?? { ...full, offered: 0, rate: 0 };
  say(
    `${tag}sustained: ${fmt(sustained.offered)} frames/s (${fmt(sustained.offered * VALUES)} values/s), p50 ${fmt(sustained.p50)} ms, p99 ${fmt(sustained.p99)} ms;` +
      ` ratio to the slower of broker and COPY ${(sustained.offered / slower).toFixed(2)}`,
  );
  return { full, sustained, ratio: sustained.offered / slower };
}

say(
  `${cpus().length} cores (${cpus()[0]?.model ?? "unknown"}), load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
say(`broker: ${ownBroker ? `Mosquitto of the bench's own (max_queued_messages 100000) at ${brokerUrl}` : brokerUrl}`);
say(
  `full three-phase frame: ${VALUES} values, ${frames.binary.length} bytes; ${deviceCount} devices; ${seconds} s per measurement`,
);
const database = await createScratchDatabase(serverUrl, "ess_bench");
let runtime: Runtime | null = null;
let children: ConsoleProcesses | null = null;
const probes: StoreProbe[] = [];
try {
  // Broker steps are shorter than the pipeline's: the broker holds no state that grows with time.
  const { sustained: broker } = await brokerAlone({
    url: brokerUrl,
    run,
    connections: connectionsOf("raw"),
    payload: frames.binary,
    seconds: Math.min(seconds, 20),
    say,
    load,
  });

  runtime = await startRuntime(
    loadConfig({
      PORT: "0",
      MQTT_URL: brokerUrl,
      MQTT_SHARED_GROUP: `ess-bench-${run}`,
      MQTT_SESSION_EXPIRY_S: "30",
      DATABASE_URL: database.url,
      DATA_DIR: `/tmp/ess-bench-${run}`,
      LOG_LEVEL: "error",
      NODE_ENV: "development",
      ESS_ADMIN_PASSWORD: "Bench12345",
      ...(process.env.ESS_ENERGY_ROLLUP_MS ? { ESS_ENERGY_ROLLUP_MS: process.env.ESS_ENERGY_ROLLUP_MS } : {}),
    }),
  );
  const { rows } = await runtime.db.query<{ id: number }>(
    "INSERT INTO device (tenant_id, sn, phase_type, time_zone) SELECT 1, sn, 2, 'Europe/Rome' FROM unnest($1::text[]) AS sn RETURNING id",
    [serials],
  );
  const copy = await copyAlone(
    database.url,
    rows.map((r) => r.id),
  );
  say(`PostgreSQL COPY alone (same rows):          ${fmt(copy)} rows/s${load()}`);

  const slower = Math.min(broker, copy);
  const group = `ess-bench-${run}`;
  // With more processes, both ladders read stored frames and latencies the same way (from each
  // console's /metrics and from the database), so that their figures compare.
  const probeOf = async (urls: () => string[], own: Runtime) =>
    processes > 1
      ? crossProcessProbe({ urls, databaseUrl: database.url, pollMs: Math.max(100, Math.round(deviceCount / 400)), own })
      : inProcessProbe(own);
  const ownConsole = runtime;
  const single = await probeOf(() => [ownConsole.url], ownConsole);
  probes.push(single);
  if (processes > 1) say(`${processes} console processes after one: latencies read from the database (ingest-probes.ts)`);
  const tag1 = processes > 1 ? "[1 process] " : "";
  await warmUp(single, tag1);
  const one = await ladder(runtime.db, single, [], tag1, slower);

  if (processes > 1) {
    await drained(single);
    children = await startConsoleProcesses(processes - 1, {
      DATABASE_URL: database.url,
      MQTT_URL: brokerUrl,
      MQTT_SHARED_GROUP: group,
      clientIdPrefix: `ess-bench-${run}`,
    });
    const urls = [runtime.url, ...children.urls];
    const all = await probeOf(() => urls, ownConsole);
    probes.push(all);
    const tag = `[${processes} processes] `;
    say(`${tag}started ${processes - 1} more (PIDs ${children.pids.join(", ")}), shared group ${group}${load()}`);
    await warmUp(all, tag);
    const many = await ladder(runtime.db, all, children.pids, tag, slower);
    const row = (what: string, a: string, b: string) => say(`  ${what.padEnd(44)}${a.padStart(16)}${b.padStart(16)}`);
    say(`\nside by side (same broker-alone and COPY-alone figures):`);
    row("", "1 process", `${processes} processes`);
    row("sustained (frames/s)", fmt(one.sustained.offered), fmt(many.sustained.offered));
    row(
      "p50 / p99 at that rate (ms)",
      `${fmt(one.sustained.p50)} / ${fmt(one.sustained.p99)}`,
      `${fmt(many.sustained.p50)} / ${fmt(many.sustained.p99)}`,
    );
    row("ratio to the slower of broker and COPY", one.ratio.toFixed(2), many.ratio.toFixed(2));
    row(
      "CPU per 1,000 frames: consoles / PostgreSQL",
      `${fmt(one.sustained.consolePer1000)} / ${fmt(one.sustained.postgresPer1000)}`,
      `${fmt(many.sustained.consolePer1000)} / ${fmt(many.sustained.postgresPer1000)}`,
    );
    row("unthrottled (frames/s stored)", fmt(one.full.rate), fmt(many.full.rate));
    say(`  ${load().trim()}`);
  }

  const size = await runtime.db.query<{ bytes: number; n: number }>(
    `SELECT (SELECT sum(pg_total_relation_size(c.oid)) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
              JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'telemetry_history')::float8 AS bytes,
            (SELECT count(*) FROM telemetry_history)::float8 AS n`,
  );
  const { bytes, n } = size.rows[0] ?? { bytes: 0, n: 1 };
  say(
    `storage: ${fmt(n)} readings, ${fmt(bytes / n)} bytes per reading (table, TOAST, index) = ${(bytes / n / VALUES).toFixed(2)} bytes per data point`,
  );
} finally {
  await children?.stop();
  for (const probe of probes) await probe.close();
  await runtime?.close();
  await database.drop();
  ownBroker?.stop();
}
