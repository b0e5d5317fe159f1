import { readFileSync } from "node:fs";
import type { Db } from "@ess/server/internal/db/db.ts";

/** Clock ticks per second of /proc/<pid>/stat (100 on Linux). */
const TICKS_PER_S = 100;

/** CPU time (user and system, all threads) a process has spent so far; null once it has gone. */
export function processCpuMs(pid: number): number | null {
  try {
    // Fields after the command name (which may hold spaces): utime is the 12th, stime the 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S;
  } catch {
    return null; // the backend has gone
  }
}

/** The machine's CPU time so far, busy and idle (waiting for I/O counts as idle), from /proc/stat. */
function machineCpuMs(): { busy: number; idle: number } {
  const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "").trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is inside user already)
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = fields;
  const ms = (ticks: number) => (ticks * 1000) / TICKS_PER_S;
  return { busy: ms(user + nice + system + irq + softirq + steal), idle: ms(idle + iowait) };
}

/**
 * CPU spent by this process's main thread (and by the whole of each process in `consolePids`: the
 * console processes the bench started) and by the PostgreSQL backends serving the bench's database
 * (but those in `exceptBackends`: the bench's own probes), between `start()` and `stop()`. On a shared machine rates depend on what else runs;
 * CPU per frame mostly does not, so it is what compares one version of the pipeline with another.
 * The pool opens and closes connections, so backends are sampled every `everyMs` (100 ms unless
 * given): one that comes and goes between two samples is missed. Sampling is work of this process
 * (a query and a /proc read per backend): where that process's own CPU is the figure, sample
 * seldom.
 */
export function cpuMeter(
  db: Db,
  options: { consolePids?: readonly number[]; exceptBackends?: readonly number[]; everyMs?: number; brokerPid?: number } = {},
) {
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  const consolesMs = () => (options.consolePids ?? []).reduce((sum, pid) => sum + (processCpuMs(pid) ?? 0), 0);
  const sample = async (initial: boolean) => {
    const { rows } = await db.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> ALL($1::int4[])",
      [options.exceptBackends ?? []],
    );
    for (const { pid } of rows) {
      const ms = processCpuMs(pid);
      if (ms === null) continue;
      if (!first.has(pid)) first.set(pid, initial ? ms : 0);
      last.set(pid, ms);
    }
    for (const pid of last.keys()) {
      const ms = processCpuMs(pid);
      if (ms !== null) last.set(pid, ms);
    }
  };
  // PostgreSQL's own processes (WAL writer, checkpointer, background writer, autovacuum): work the
  // stored frames cause beyond their backends'. On a shared server they serve other databases too.
  const background = async () => {
    const { rows } = await db.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE backend_type <> 'client backend'");
    return new Map(rows.map(({ pid }) => [pid, processCpuMs(pid) ?? 0]));
  };
  return async () => {
    await sample(true);
    const backgroundBefore = await background();
    const machineBefore = machineCpuMs();
    const processBefore = process.cpuUsage();
    const brokerBefore = options.brokerPid ? (processCpuMs(options.brokerPid) ?? 0) : 0;
    const threadBefore = process.threadCpuUsage();
    const consolesBefore = consolesMs();
    const started = performance.now();
    let sampling = Promise.resolve();
    const timer = setInterval(() => {
      sampling = sampling.then(() => sample(false)).catch(() => {});
    }, options.everyMs ?? 100);
    return async () => {
      clearInterval(timer);
      await sampling;
      await sample(false);
      const thread = process.threadCpuUsage(threadBefore);
      const whole = process.cpuUsage(processBefore);
      const machine = machineCpuMs();
      let postgresMs = 0;
      for (const [pid, ms] of last) postgresMs += ms - (first.get(pid) ?? 0);
      let backgroundMs = 0;
      for (const [pid, ms] of await background()) backgroundMs += ms - (backgroundBefore.get(pid) ?? ms);
      const threadMs = (thread.user + thread.system) / 1000;
      return {
        consoleMs: threadMs + consolesMs() - consolesBefore,
        postgresMs,
        /**
         * Where the machine's time went over `wallMs`, in ms: the console's and PostgreSQL's as
         * above; the rest of this process (the publishers' thread, garbage collection and libuv's
         * threads); the broker (when its PID is known); PostgreSQL's background processes. The
         * machine's busy time less these is other programs, kernel threads and backends that came
         * and went between two samples (each process's own kernel time is in its figure).
         */
        machine: {
          wallMs: performance.now() - started,
          busyMs: machine.busy - machineBefore.busy,
          idleMs: machine.idle - machineBefore.idle,
          restOfProcessMs: (whole.user + whole.system) / 1000 - threadMs,
          brokerMs: options.brokerPid ? (processCpuMs(options.brokerPid) ?? 0) - brokerBefore : Number.NaN,
          postgresBackgroundMs: backgroundMs,
        },
      };
    };
  };
}

/** What a meter's stop returns. */
export type CpuSpent = Awaited<ReturnType<Awaited<ReturnType<ReturnType<typeof cpuMeter>>>>>;
