import { readFileSync } from "node:fs";
import { inject } from "vitest";
import type { Db } from "../../src/db/db.ts";
import { migrate } from "../../src/db/migrate.ts";
import { openPglite } from "../../src/db/pglite.driver.ts";
import { openPostgres } from "../../src/db/postgres.driver.ts";
import { createScratchDatabase } from "../../src/db/scratch-database.ts";

/** Which database the integration tests run on, for test names and skips. */
export const TEST_DRIVER = process.env.TEST_DATABASE_URL ? "postgres" : "pglite";

/**
 * A fresh, migrated database for one test file: an in-memory PGlite, or — when
 * TEST_DATABASE_URL is set — a new database on that PostgreSQL server, dropped on close.
 */
export async function createTestDb(): Promise<Db> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const snapshot = inject("pgliteSnapshot");
    const db = await openPglite(undefined, snapshot ? new Blob([readFileSync(snapshot)]) : undefined);
    await migrate(db);
    return db;
  }
  const fresh = (await freshDatabaseUrl()) as NonNullable<Awaited<ReturnType<typeof freshDatabaseUrl>>>;
  const db = await openPostgres({ url: fresh.url, poolSize: 5, connectTimeoutMs: 5000 });
  await migrate(db);
  return {
    ...db,
    async close() {
      await db.close();
      await fresh.drop();
    },
  };
}

/**
 * A new empty database on the TEST_DATABASE_URL server for a whole server process, or null when
 * the tests run on PGlite. `drop` removes it.
 */
export async function freshDatabaseUrl(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  return serverUrl ? createScratchDatabase(serverUrl, "ess_test") : null;
}
