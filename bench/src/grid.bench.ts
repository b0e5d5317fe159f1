/**
 * What polling the utility costs the console per site: the CSIP-AUS aggregator client working for
 * `sites` registered sites against the utility test server, which runs in a process of its own
 * (utility-sim.child.ts) so the CPU measured here — this process's user + system time, every
 * thread — is the console's alone. Devices are seeded straight into the database with NMIs; the
 * client registers them in band as it does in production. Every list is polled at the same server
 * period on a compressed clock (a cycle every period / factor real seconds); once every site is
 * registered and a full cycle has passed, `cycles` whole periods are measured.
 *
 * A cycle holds every loop of every site once: the EndDevice list (all sites, paged) and the
 * DeviceCapability and Time at discovery; per site the FunctionSetAssignments list, DERProgram
 * list → DefaultDERControl + DERControl list, the event timer, the DER writes (ConnectionPoint and
 * the four DER descriptions, at the DER list rate) and the metering mirror's GET (no readings are
 * posted: the seeded devices have no telemetry, so only the averages query runs). Every exchange
 * is stored as grid_exchange, as in production.
 *
 *   npm run grid -w @ess/bench -- [sites=1000] [cycles=3] [period-s=60] [factor=4]
 * BENCH_DATABASE_URL: a fresh PostgreSQL database (made and dropped) instead of embedded PGlite.
 * BENCH_CPU_PROF=<file>: a CPU profile of the measured window, written there and summarised.
 */
import { fork } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:https";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { COUNTRY_AUSTRALIA, GRID_IDENTITY_DEFAULTS } from "@ess/domain";
import { nmiChecksum } from "@ess/domain/grid/nmi.ts";
import { createCertificateAuthority, issueClientCertificate, issueServerCertificate } from "@ess/sep2/certificates.ts";
import { startGridClient } from "@ess/server/internal/modules/grid/grid-client.ts";
import { loadGridCredentials } from "@ess/server/internal/modules/grid/grid-credentials.ts";
import { createSepClient } from "@ess/server/internal/modules/grid/sep-client.ts";
import { createPartitionKeeper } from "@ess/server/internal/modules/telemetry/partitions.ts";
import { createMetrics } from "@ess/server/internal/observability/metrics.ts";
import { compressedClock } from "@ess/utility-sim";
import { openBenchDatabase } from "./bench-database.ts";
import { cpuMeter } from "./cpu-cost.ts";
import { startCpuProfile } from "./cpu-profile.ts";
import type { SimChildReady, SimChildSetup } from "./utility-sim.child.ts";

const siteCount = Number(process.argv[2] ?? 1000);
const cycles = Number(process.argv[3] ?? 3);
const periodS = Number(process.argv[4] ?? 60);
const factor = Number(process.argv[5] ?? 4);
const realPeriodMs = (periodS * 1000) / factor;
const say = (line: string) => process.stdout.write(`${line}\n`);
const load = () => `[load ${loadavg()[0]?.toFixed(1)}]`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

say(
  `${cpus().length} cores (${cpus()[0]?.model ?? "unknown"}), load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);

const ca = await createCertificateAuthority({ commonName: "Grid bench utility CA" });
const serverCert = await issueServerCertificate(ca, { commonName: "utility" });
const aggregator = await issueClientCertificate(ca, { commonName: "bench aggregator" });
const dir = mkdtempSync(join(tmpdir(), "grid-bench-"));
const files = { ESS_GRID_CERT: join(dir, "cert.pem"), ESS_GRID_KEY: join(dir, "key.pem"), ESS_GRID_CA: join(dir, "ca.pem") };
writeFileSync(files.ESS_GRID_CERT, aggregator.certificatePem);
writeFileSync(files.ESS_GRID_KEY, aggregator.privateKeyPem);
writeFileSync(files.ESS_GRID_CA, ca.certificatePem);

const rates = { dcapPoll: periodS, edevListPoll: periodS, fsaListPoll: periodS, derpListPoll: periodS, derListPoll: periodS };
const child = fork(new URL("./utility-sim.child.ts", import.meta.url), { stdio: "inherit" });
const simReady = new Promise<SimChildReady>((resolve) => child.once("message", (m) => resolve(m as SimChildReady)));
child.send({
  tls: { ca: ca.certificatePem, cert: serverCert.certificatePem, key: serverCert.privateKeyPem },
  factor,
  rates: { ...rates, mupPost: periodS },
} satisfies SimChildSetup);
const sim = await simReady;

/** This process's CPU for one HTTPS GET on a kept-alive connection with the client's TLS settings. */
async function bareRequestCpu(url: string, count: number): Promise<number> {
  const credentials = loadGridCredentials(files);
  const agent = new Agent({
    keepAlive: true,
    maxSockets: 4,
    cert: credentials.cert,
    key: credentials.key,
    ca: credentials.ca,
    minVersion: "TLSv1.2",
  });
  const get = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(url, { agent }, (res) => {
        res.resume();
        res.on("end", resolve);
      });
      req.on("error", reject);
      req.end();
    });
  const batch = async (n: number) => {
    for (let i = 0; i < n; i += 4) await Promise.all([get(), get(), get(), get()]);
  };
  await batch(200); // connections up, code warm
  const before = process.cpuUsage();
  await batch(count);
  const ms = cpuMs(before) / count;
  agent.destroy();
  return ms;
}

/**
 * The console's SEP client in the floor's tight loop (DeviceCapability, four at a time): what our
 * HTTP layer, decoding and exchange hook add to a bare GET before any grid logic runs.
 */
async function sepClientCpu(dcapUrl: string, count: number): Promise<number> {
  const sep = createSepClient({ dcapUrl, ...loadGridCredentials(files), onExchange: () => {} });
  const batch = async (n: number) => {
    for (let i = 0; i < n; i += 4) await Promise.all([0, 1, 2, 3].map(() => sep.get(sep.dcapPath, ["DeviceCapability"])));
  };
  await batch(200);
  const before = process.cpuUsage();
  await batch(count);
  sep.close();
  return cpuMs(before) / count;
}

const database = await openBenchDatabase(dir, "ess_bench_grid");
const { db } = database;
let stopClient: (() => Promise<void>) | undefined;
try {
  const floorMs = await bareRequestCpu(sim.bareUrl, 4000);
  say(
    `floor: a bare HTTPS GET (keep-alive, client certificate, same TLS settings) costs this process ${floorMs.toFixed(3)} ms CPU  ${load()}`,
  );

  const clientFloorMs = await sepClientCpu(sim.dcapUrl, 4000);
  say(
    `the console's own client, same GET in the same loop, decoding and exchange hook included: ${clientFloorMs.toFixed(3)} ms CPU`,
  );

  await db.query("INSERT INTO tenant (id, name) VALUES (1, 'Default') ON CONFLICT (id) DO NOTHING");
  const clock = compressedClock({ factor });
  await createPartitionKeeper(db, { retentionDays: 30 }).ensureAround(clock.now());
  const serials = Array.from({ length: siteCount }, (_, i) => `GRIDBENCH${String(i).padStart(6, "0")}`);
  // Ten-digit NMIs of one network's numeric range, each with its checksum digit.
  const nmis = serials.map((_, i) => {
    const base = String(2001000000 + i);
    return `${base}${nmiChecksum(base)}`;
  });
  await db.query(
    `INSERT INTO device (tenant_id, sn, name, country_code, nmi, rated_power, online_status)
     SELECT 1, sn, sn, $3, nmi, 6, 1 FROM unnest($1::text[], $2::text[]) AS t(sn, nmi)`,
    [serials, nmis, COUNTRY_AUSTRALIA],
  );

  const metrics = createMetrics();
  const quiet = { info() {}, warn() {}, error() {} };
  let warnings = 0;
  // Statements the client runs, by their first words: what the database side of a cycle is made of.
  const statements = new Map<string, { count: number; ms: number }>();
  const counted: typeof db = Object.create(db);
  counted.query = async (text, params) => {
    const key = text.replace(/\s+/g, " ").trim().slice(0, 48);
    const t0 = performance.now();
    try {
      return await db.query(text, params);
    } finally {
      const entry = statements.get(key) ?? { count: 0, ms: 0 };
      entry.count++;
      entry.ms += performance.now() - t0;
      statements.set(key, entry);
    }
  };
  const client = startGridClient({
    db: counted,
    credentials: loadGridCredentials(files),
    dcapUrl: sim.dcapUrl,
    pen: GRID_IDENTITY_DEFAULTS.pen,
    scope: "au",
    clock,
    log: { ...quiet, warn: () => void warnings++ },
    metrics,
  });
  stopClient = () => client.stop();
  const requests = async () => {
    const byMethod: Record<string, number> = {};
    for (const v of (await metrics.gridRequests.get()).values) {
      const method = String(v.labels.method);
      byMethod[method] = (byMethod[method] ?? 0) + v.value;
    }
    return byMethod;
  };

  const programRounds = async () => (await metrics.gridRounds.get()).values.find((v) => v.labels.task === "programs")?.value ?? 0;

  const registering = performance.now();
  const registeringCpu = process.cpuUsage();
  while (client.sites().size < siteCount && performance.now() - registering < 600_000) await sleep(250);
  say(
    `${client.sites().size} of ${siteCount} sites registered in band in ${((performance.now() - registering) / 1000).toFixed(1)} s, ` +
      `${(cpuMs(registeringCpu) / siteCount).toFixed(2)} ms console CPU per site  ${load()}`,
  );
  // Every loop of every site has run once (the DER loop waits a period first) before measuring.
  await sleep(realPeriodMs * 1.5);

  const profiling = process.env.BENCH_CPU_PROF ? await startCpuProfile(process.env.BENCH_CPU_PROF) : null;
  // The console's CPU is this process's: the meter samples the (long-lived) pool's backends once a
  // second, not ten times, so its own queries and /proc reads weigh little in it.
  const stopMeter = await cpuMeter(db, { everyMs: 1000 })();
  // What the exchange log keeps: rows, the reads they stand for, and the documents' bytes.
  const stored = async () =>
    (
      await db.query<{ rows: number; reads: number; bytes: number }>(
        "SELECT count(*)::int AS rows, coalesce(sum(reads), 0)::int AS reads, coalesce(sum(octet_length(body)), 0)::float8 AS bytes FROM grid_exchange",
      )
    ).rows[0] as { rows: number; reads: number; bytes: number };
  const storedBefore = await stored();
  statements.clear();
  const before = await requests();
  const roundsBefore = await programRounds();
  const cpuBefore = process.cpuUsage();
  const mainBefore = process.threadCpuUsage();
  const started = performance.now();
  await sleep(realPeriodMs * cycles);
  const consoleMs = cpuMs(cpuBefore);
  const mainUsage = process.threadCpuUsage(mainBefore);
  const mainMs = (mainUsage.user + mainUsage.system) / 1000;
  const elapsedS = (performance.now() - started) / 1000;
  const after = await requests();
  const { postgresMs } = await stopMeter();
  const hottest = await profiling?.();
  const storedAfter = await stored();
  const made = Object.fromEntries(Object.entries(after).map(([m, n]) => [m, n - (before[m] ?? 0)]));
  const total = Object.values(made).reduce((a, b) => a + b, 0);
  const perSiteCycle = (n: number) => n / (siteCount * cycles);
  const failed = (await metrics.gridFailures.get()).values.reduce((a, v) => a + v.value, 0);

  say(
    `engine: ${database.engine}; ${periodS} s server period, clock x${factor} (a cycle every ${(realPeriodMs / 1000).toFixed(1)} s real)`,
  );
  say(`sites ${siteCount}, cycles ${cycles}, measured ${elapsedS.toFixed(1)} s  ${load()}`);
  say(
    `requests: ${total} (${Object.entries(made)
      .map(([m, n]) => `${m} ${n}`)
      .join(", ")}), ` +
      `${perSiteCycle(total).toFixed(2)} per site per cycle, ${(total / elapsedS).toFixed(0)} requests/s; failures since start ${failed}, warnings ${warnings}`,
  );
  say(
    `console CPU: ${consoleMs.toFixed(0)} ms = ${perSiteCycle(consoleMs).toFixed(3)} ms per site per cycle, ` +
      `${(consoleMs / Math.max(1, total)).toFixed(3)} ms per request (floor ${floorMs.toFixed(3)}: ` +
      `${(perSiteCycle(total) * floorMs).toFixed(3)} ms per site per cycle); ` +
      `${((consoleMs / (elapsedS * 1000)) * 100).toFixed(0)} % of one core`,
  );
  // The rest is the process's other threads: V8's compiler and collector helpers, libuv's pool.
  say(`  of it the main thread: ${perSiteCycle(mainMs).toFixed(3)} ms per site per cycle`);
  // Program polls completed in the window: how many cycles the sites did complete.
  const completed = (await programRounds()) - roundsBefore;
  say(
    `cycles completed: ${(completed / siteCount).toFixed(2)} program polls per site of ${cycles} due; ` +
      `console CPU per site per completed cycle ${(consoleMs / Math.max(1, completed)).toFixed(3)} ms`,
  );
  const storedRows = storedAfter.rows - storedBefore.rows;
  say(
    `exchange log: ${perSiteCycle(storedRows).toFixed(2)} rows per site per cycle for ` +
      `${perSiteCycle(storedAfter.reads - storedBefore.reads).toFixed(2)} exchanges, ` +
      `${(perSiteCycle(storedAfter.bytes - storedBefore.bytes) / 1024).toFixed(2)} KiB of documents per site per cycle`,
  );
  if (database.engine === "PostgreSQL")
    say(`PostgreSQL backends CPU: ${perSiteCycle(postgresMs).toFixed(3)} ms per site per cycle`);
  say("statements per site per cycle (wall ms each, queueing included):");
  for (const [key, { count, ms }] of [...statements].sort((a, b) => b[1].count - a[1].count))
    say(`  ${perSiteCycle(count).toFixed(2).padStart(6)}  ${(ms / count).toFixed(2).padStart(7)} ms  ${key}`);
  if (hottest) say(`CPU profile of the measured window (${process.env.BENCH_CPU_PROF}), self time:\n${hottest.join("\n")}`);
} finally {
  await stopClient?.();
  child.disconnect();
  await db.close();
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
}
