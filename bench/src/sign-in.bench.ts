/**
 * Sign-in floods: other routes' latency while 50 password sign-ins are in flight all the time,
 * beside the same routes without the flood and the machine's raw hashing rate. Servers in their
 * own processes on loopback, one per hashing concurrency asked for. Prints figures; it never
 * passes or fails on time.
 *
 *   npm run sign-in -w @ess/bench -- [rate=100] [seconds=10] [concurrencies=1,2]
 *
 * BENCH_DATABASE_URL: run the servers on a fresh PostgreSQL database each (else embedded PGlite).
 */
import { readFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import { createScratchDatabase } from "@ess/server/internal/db/scratch-database.ts";
import { configurePasswordHashing, hashPassword, verifyPassword } from "@ess/server/password";
import { startServerProcess, tempDataDir } from "@ess/server/testing";
import { type LoadResult, measureTimerDelay, printTable, runLoad } from "./load.ts";

const rate = Number(process.argv[2] ?? 100);
const seconds = Number(process.argv[3] ?? 10);
const concurrencies = (process.argv[4] ?? "1,2").split(",").map(Number);
const IN_FLIGHT = 50;
const password = "Bench12345";
const say = (line: string) => process.stdout.write(`${line}\n`);

/** Hashes per second of the native binding with `parallel` at once, in this process. */
async function hashRate(parallel: number, ms = 3000): Promise<number> {
  const stored = await hashPassword(password);
  const started = performance.now();
  let done = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (performance.now() - started < ms) {
        await verifyPassword(password, stored);
        done++;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

/** CPU milliseconds of one thread of a process (the main thread: its id is the process id). */
function threadCpuMs(pid: number, tid = pid): number {
  const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Keeps `IN_FLIGHT` sign-ins running until `until()` says stop; their rate and latency. */
async function flood(url: string, until: () => boolean) {
  const latencies: number[] = [];
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (!until()) {
        const t0 = performance.now();
        const answer = await fetch(`${url}login?grant_type=admin`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ username: "admin", password }),
        });
        const body = (await answer.json()) as { code: number };
        if (body.code === 0) latencies.push(performance.now() - t0);
        else failed++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  return { perSecond: latencies.length / ((performance.now() - started) / 1000), p50: at(0.5), p99: at(0.99), failed };
}

say(
  `${cpus().length} cores (${cpus()[0]?.model ?? "unknown"}), UV_THREADPOOL_SIZE ${process.env.UV_THREADPOOL_SIZE ?? "4 (default)"}`,
);
const floor = await measureTimerDelay();
say(
  `machine floor (idle 10 ms timer lateness): p50 ${floor.p50.toFixed(1)} ms, p99 ${floor.p99.toFixed(1)} ms, max ${floor.max.toFixed(1)} ms`,
);
for (const parallel of [1, availableParallelism()]) {
  configurePasswordHashing({ concurrency: parallel, queue: 1000 });
  say(`argon2id (m=19 MiB, t=2, p=1), native, ${parallel} at once: ${(await hashRate(parallel)).toFixed(1)} hashes/s`);
}

for (const concurrency of concurrencies) {
  const scratch = process.env.BENCH_DATABASE_URL
    ? await createScratchDatabase(process.env.BENCH_DATABASE_URL, "ess_bench_signin")
    : null;
  const server = startServerProcess({
    DATA_DIR: tempDataDir("ess-bench-"),
    ESS_ADMIN_PASSWORD: password,
    // The same sign-in repeated would be answered "too frequent" without a hash.
    ESS_REPEAT_GUARD_MS: "0",
    ESS_PASSWORD_HASH_CONCURRENCY: String(concurrency),
    ESS_PASSWORD_HASH_QUEUE: "1000",
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  });
  const url = await server.ready();
  const login = (await (
    await fetch(`${url}login?grant_type=admin`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "admin", password }),
    })
  ).json()) as { data: { access_token: string } };
  const auth = { authorization: `Bearer ${login.data.access_token}` };
  const probes = (durationS: number) =>
    Promise.all([
      runLoad({ url: `${url}healthz`, ratePerSec: rate, durationS }),
      runLoad({ url: `${url}sys/user/info`, headers: auth, ratePerSec: rate, durationS }),
    ]);

  say("");
  say(
    `ESS_PASSWORD_HASH_CONCURRENCY=${concurrency}, ${scratch ? "PostgreSQL" : "embedded PGlite"}, ${rate} requests/s per route for ${seconds} s`,
  );
  await probes(1); // warm-up
  const rows: { name: string; result: LoadResult; load?: number }[] = [];
  const [quietHealth, quietInfo] = await probes(seconds);
  rows.push({ name: "GET /healthz, quiet", result: quietHealth, load: loadavg()[0] });
  rows.push({ name: "GET /sys/user/info, quiet", result: quietInfo, load: loadavg()[0] });
  const pid = server.child.pid as number;
  const loopBefore = threadCpuMs(pid);
  let running = true;
  const flooding = flood(url, () => !running);
  const [busyHealth, busyInfo] = await probes(seconds);
  running = false;
  const signIns = await flooding;
  const loopMs = threadCpuMs(pid) - loopBefore;
  rows.push({ name: `GET /healthz, ${IN_FLIGHT} sign-ins`, result: busyHealth, load: loadavg()[0] });
  rows.push({ name: `GET /sys/user/info, ${IN_FLIGHT} sign-ins`, result: busyInfo, load: loadavg()[0] });
  printTable(rows);
  say(
    `sign-ins meanwhile: ${signIns.perSecond.toFixed(1)}/s, p50 ${signIns.p50.toFixed(0)} ms, p99 ${signIns.p99.toFixed(0)} ms, ${signIns.failed} refused`,
  );
  // The event loop's own CPU over the flood (the probes' requests included), per sign-in: what
  // stays on the loop once the hash is off it.
  say(
    `event-loop thread: ${((loopMs / (seconds * 1000)) * 100).toFixed(0)} % of a core, ${(loopMs / Math.max(1, signIns.perSecond * seconds)).toFixed(1)} ms per sign-in`,
  );
  await server.stop();
  await scratch?.drop();
}
