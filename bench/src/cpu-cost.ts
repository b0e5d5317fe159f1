import { readFileSync } from "node:fs";
import type { Db } from "@ess/server/internal/db/db.ts";

/** Clock ticks per second of /proc/<pid>/stat (100 on Linux). */
const TICKS_PER_S = 100;

function processCpuMs(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces): utime is the 12th, stime the 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S;
  } catch {
    return 0; // the backend has gone
  }
}

/**
 * CPU spent by this process's main thread and by the PostgreSQL backends serving the bench's
 * database, between `start()` and `stop()`. On a shared machine rates depend on what else runs;
 * CPU per frame mostly does not, so it is what compares one version of the pipeline with another.
 */
export function cpuMeter(db: Db) {
  const backends = async () =>
    (await db.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database()")).rows.map(
      (r) => r.pid,
    );
  return async () => {
    const pids = await backends();
    const pgBefore = new Map(pids.map((pid) => [pid, processCpuMs(pid)]));
    const threadBefore = process.threadCpuUsage();
    return async () => {
      const thread = process.threadCpuUsage(threadBefore);
      let pg = 0;
      for (const pid of new Set([...pgBefore.keys(), ...(await backends())])) pg += processCpuMs(pid) - (pgBefore.get(pid) ?? 0);
      return { consoleMs: (thread.user + thread.system) / 1000, postgresMs: pg };
    };
  };
}
