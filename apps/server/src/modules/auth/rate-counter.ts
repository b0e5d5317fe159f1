import type { Queryable } from "../../db/db.ts";

/**
 * Fixed-window counters in the database, shared by every server process: failed sign-ins per
 * address, SMS codes per number and per address, captcha images per address.
 */
export function createRateCounter(db: Queryable) {
  return {
    /** Counts one event; returns the count in the current window (including this one). */
    async hit(bucket: string, key: string, windowS: number): Promise<number> {
      const { rows } = await db.query<{ hits: number }>(
        `INSERT INTO rate_counter AS c (bucket, key, window_start, hits) VALUES ($1, $2, now(), 1)
         ON CONFLICT (bucket, key) DO UPDATE SET
           hits = CASE WHEN c.window_start <= now() - make_interval(secs => $3) THEN 1 ELSE c.hits + 1 END,
           window_start = CASE WHEN c.window_start <= now() - make_interval(secs => $3) THEN now() ELSE c.window_start END
         RETURNING hits`,
        [bucket, key, windowS],
      );
      return rows[0]?.hits ?? 1;
    },

    /** The count in the current window, without counting. */
    async peek(bucket: string, key: string, windowS: number): Promise<number> {
      const { rows } = await db.query<{ hits: number }>(
        `SELECT hits FROM rate_counter
          WHERE bucket = $1 AND key = $2 AND window_start > now() - make_interval(secs => $3)`,
        [bucket, key, windowS],
      );
      return rows[0]?.hits ?? 0;
    },

    async clear(bucket: string, key: string) {
      await db.query("DELETE FROM rate_counter WHERE bucket = $1 AND key = $2", [bucket, key]);
    },
  };
}

export type RateCounter = ReturnType<typeof createRateCounter>;
