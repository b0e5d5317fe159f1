/**
 * Events between console processes through PostgreSQL LISTEN/NOTIFY (`cluster/bus.ts`): how many
 * notices a second one process's bus delivers to another's, and what each thousand costs the
 * processes and PostgreSQL, for payloads of a few sizes — beside the machine's raw limit, a bare
 * `pg_notify` sender and LISTEN receiver with the same batching and nothing else.
 *
 *   BENCH_DATABASE_URL=postgres://… npm run notify -w @ess/bench -- [notices per size] [bytes,bytes,…]
 *
 * Both buses (and both bare clients) run in this process, so "process CPU" is sender and receiver
 * together. NOTIFY exists only on PostgreSQL: PGlite serves one process and needs no bus.
 */
import { cpus, loadavg } from "node:os";
import { startPostgresBus } from "@ess/server/internal/cluster/bus.ts";
import { migrate } from "@ess/server/internal/db/migrate.ts";
import { openPostgres } from "@ess/server/internal/db/postgres.driver.ts";
import { createScratchDatabase } from "@ess/server/internal/db/scratch-database.ts";
import pg from "pg";
import { cpuMeter } from "./cpu-cost.ts";

const serverUrl = process.env.BENCH_DATABASE_URL;
if (!serverUrl) {
  process.stderr.write("BENCH_DATABASE_URL is required: LISTEN/NOTIFY is measured on PostgreSQL\n");
  process.exit(1);
}
const count = Number(process.argv[2] ?? 200_000);
const sizes = (process.argv[3] ?? "200,2000,7000").split(",").map(Number);
/** Notices sent but not yet received, beyond which the sender waits (below the bus's queue of 10,000). */
const IN_FLIGHT = 4_000;
/** As the bus sends them: one statement per this many notices. */
const BATCH = 200;

const say = (line: string) => process.stdout.write(`${line}\n`);
const load = () => `[load ${loadavg()[0]?.toFixed(1)}]`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quiet = { info() {}, warn() {}, error: (_: object, message: string) => void process.stderr.write(`${message}\n`) };

interface Figures {
  perSecond: number;
  processMs: number;
  postgresMs: number;
  lost: number;
}

/** Sends `count` payloads through `send` while at most IN_FLIGHT wait, until all arrived or a minute passed. */
async function measure(db: Parameters<typeof cpuMeter>[0], received: () => number, send: (n: number) => void): Promise<Figures> {
  const stopMeter = await cpuMeter(db, { everyMs: 1000 })();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  let sent = 0;
  while (sent < count && performance.now() - started < 60_000) {
    if (sent - received() >= IN_FLIGHT) {
      await sleep(1);
      continue;
    }
    const n = Math.min(BATCH, count - sent);
    send(n);
    sent += n;
    await new Promise((resolve) => setImmediate(resolve));
  }
  while (received() < sent && performance.now() - started < 60_000) await sleep(1);
  const elapsedS = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const { postgresMs } = await stopMeter();
  return {
    perSecond: received() / elapsedS,
    processMs: (cpu.user + cpu.system) / 1000,
    postgresMs,
    lost: sent - received(),
  };
}

const per1000 = (ms: number) => ((ms / count) * 1000).toFixed(1);
const line = (label: string, f: Figures) =>
  `${label.padEnd(26)} ${f.perSecond.toFixed(0).padStart(7)} notices/s   process CPU ${per1000(f.processMs).padStart(6)} ms   ` +
  `PostgreSQL CPU ${per1000(f.postgresMs).padStart(6)} ms per 1,000${f.lost > 0 ? `   ${f.lost} not received in a minute` : ""}`;

const scratch = await createScratchDatabase(serverUrl, "ess_bench_notify");
const db = await openPostgres({ url: scratch.url, poolSize: 4, connectTimeoutMs: 5_000 });
const clients: pg.Client[] = [];
try {
  await migrate(db);
  say(
    `${cpus().length} cores (${cpus()[0]?.model}), load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  say(`${count} notices per payload size; both ends in this process; CPU per 1,000 notices delivered`);

  const sender = await startPostgresBus({ url: scratch.url, db, log: quiet, connectTimeoutMs: 5_000 });
  const receiver = await startPostgresBus({ url: scratch.url, db, log: quiet, connectTimeoutMs: 5_000 });
  for (const bytes of sizes) {
    // The raw limit: a bare sender and a bare LISTEN client, the same statement the bus sends.
    const listener = new pg.Client({ connectionString: scratch.url });
    const notifier = new pg.Client({ connectionString: scratch.url });
    clients.push(listener, notifier);
    await listener.connect();
    await notifier.connect();
    await listener.query("LISTEN bench_floor");
    let bare = 0;
    listener.on("notification", () => bare++);
    // Numbered: PostgreSQL delivers identical notices of one transaction once.
    const padding = "x".repeat(bytes);
    let seq = 0;
    let pending = Promise.resolve();
    const floor = await measure(
      db,
      () => bare,
      (n) => {
        const batch = Array.from({ length: n }, () => `${++seq}${padding}`.slice(0, bytes));
        pending = pending.then(() =>
          notifier.query("SELECT pg_notify('bench_floor', n) FROM unnest($1::text[]) AS n", [batch]).then(() => undefined),
        );
      },
    );
    await pending;

    // The console's bus: JSON notices with origin and topic, a live push's shape.
    let delivered = 0;
    const topic = `bench.push.${bytes}`;
    receiver.broadcast(topic, () => void delivered++);
    const push = sender.broadcast<{ d: string; p: { seq: number; data: string } }>(topic, () => undefined);
    const data = "x".repeat(Math.max(0, bytes - 80));
    const bus = await measure(
      db,
      () => delivered,
      (n) => {
        for (let i = 0; i < n; i++) push({ d: "/device/ESSBENCH0001/live", p: { seq: ++seq, data } });
      },
    );
    say(`payload about ${bytes} bytes  ${load()}`);
    say(`  ${line("bare pg_notify + LISTEN", floor)}`);
    say(`  ${line("the console's bus", bus)}`);
    await listener.end();
    await notifier.end();
  }
  await sender.close();
  await receiver.close();
} finally {
  await Promise.all(clients.map((c) => c.end().catch(() => {})));
  await db.close();
  await scratch.drop();
}
