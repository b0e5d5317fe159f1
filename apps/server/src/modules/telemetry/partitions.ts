import type { Db } from "../../db/db.ts";
import { utcDay } from "./local-day.ts";

const DAY_MS = 86_400_000;
const nameOf = (day: string) => `telemetry_history_p${day.replaceAll("-", "")}`;

/**
 * Keeps the daily partitions of telemetry_history: made ahead of time (today and the next days),
 * on demand for a reading of another day, and dropped past the retention. Another process may
 * create the same partition at the same moment; that race is harmless.
 */
export function createPartitionKeeper(db: Db, options: { retentionDays: number }) {
  const known = new Set<string>();

  async function ensure(days: Iterable<string>): Promise<void> {
    for (const day of days) {
      if (known.has(day)) continue;
      const next = utcDay(Date.parse(`${day}T00:00:00Z`) + DAY_MS);
      try {
        await db.query(
          `CREATE TABLE IF NOT EXISTS ${nameOf(day)} PARTITION OF telemetry_history
             FOR VALUES FROM ('${day} 00:00:00+00') TO ('${next} 00:00:00+00')`,
        );
      } catch (error) {
        // 42P07: made meanwhile by another process.
        if ((error as { code?: string }).code !== "42P07") throw error;
      }
      known.add(day);
    }
  }

  return {
    ensure,
    /** Yesterday, today and the next two days (UTC), so a day change never waits for DDL. */
    async ensureAround(now = Date.now()): Promise<void> {
      await ensure([-1, 0, 1, 2].map((d) => utcDay(now + d * DAY_MS)));
    },
    /** Drops the partitions wholly older than the retention. */
    async dropExpired(now = Date.now()): Promise<string[]> {
      const cutoff = utcDay(now - options.retentionDays * DAY_MS).replaceAll("-", "");
      const { rows } = await db.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_inherits i
           JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
          WHERE p.relname = 'telemetry_history'`,
      );
      const dropped = rows.map((r) => r.name).filter((n) => /^telemetry_history_p\d{8}$/.test(n) && n.slice(-8) < cutoff);
      for (const name of dropped) {
        await db.query(`DROP TABLE IF EXISTS ${name}`);
        known.delete(`${name.slice(-8, -4)}-${name.slice(-4, -2)}-${name.slice(-2)}`);
      }
      return dropped;
    },
    /** Whether a reading at `ts` is within what the history keeps. */
    inRetention: (ts: number, now = Date.now()) => ts >= now - options.retentionDays * DAY_MS,
  };
}

export type PartitionKeeper = ReturnType<typeof createPartitionKeeper>;
