import { join } from "node:path";
import type { Db } from "@ess/server/internal/db/db.ts";
import { migrate } from "@ess/server/internal/db/migrate.ts";
import { openPglite } from "@ess/server/internal/db/pglite.driver.ts";
import { openPostgres } from "@ess/server/internal/db/postgres.driver.ts";
import { createScratchDatabase } from "@ess/server/internal/db/scratch-database.ts";

/**
 * The database a list bench seeds and then hands to the console server: embedded PGlite in the
 * bench's data folder by default (what `npm start` runs), or with `BENCH_DATABASE_URL` a fresh
 * database on that PostgreSQL server (the production path, where statements run in parallel
 * connections), dropped again by `drop`.
 */
export async function openBenchDatabase(dataDir: string, prefix: string) {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  const scratch = serverUrl ? await createScratchDatabase(serverUrl, prefix) : null;
  const db: Db = scratch
    ? await openPostgres({ url: scratch.url, poolSize: 4, connectTimeoutMs: 5_000 })
    : await openPglite(join(dataDir, "pgdata"));
  await migrate(db);
  return {
    db,
    engine: scratch ? "PostgreSQL" : "embedded PGlite",
    /** What the console server needs to open the same database. */
    serverEnv: scratch ? { DATABASE_URL: scratch.url } : ({} as Record<string, string>),
    drop: async () => scratch?.drop(),
  };
}
