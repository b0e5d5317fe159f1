import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Db } from "./db.ts";

export const MIGRATIONS_DIR = fileURLToPath(new URL("../../migrations/", import.meta.url));

export interface Migration {
  version: string;
  name: string;
  sql: string;
  checksum: string;
}

/** Migrations are `NNNN_name.sql` files, applied in version order, each once. */
export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((file) => {
      const sql = readFileSync(join(dir, file), "utf8");
      return {
        version: file.slice(0, 4),
        name: file.slice(5, -4),
        sql,
        checksum: createHash("sha256").update(sql).digest("hex"),
      };
    });
}

export class MigrationError extends Error {}

// Any constant works; it only has to be the same for every process migrating this database.
const MIGRATION_LOCK = 7_072_001;

/**
 * Applies the pending migrations. Each runs in its own transaction together with its
 * bookkeeping row, under an advisory lock, so parallel server starts apply it once.
 * A migration edited after it was applied stops the start: versions are immutable.
 */
export async function migrate(db: Db, migrations = readMigrations()): Promise<string[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version text PRIMARY KEY,
    name text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const applied: string[] = [];
  for (const migration of migrations) {
    const done = await findApplied(db, migration.version);
    if (done) {
      if (done !== migration.checksum) {
        throw new MigrationError(
          `Migration ${migration.version}_${migration.name} was changed after it was applied; add a new migration instead.`,
        );
      }
      continue;
    }
    try {
      await db.exec(
        `BEGIN;
         SELECT pg_advisory_xact_lock(${MIGRATION_LOCK});
         INSERT INTO schema_migrations (version, name, checksum)
           VALUES ('${migration.version}', '${migration.name}', '${migration.checksum}');
         ${migration.sql}
         ;
         COMMIT;`,
      );
      applied.push(`${migration.version}_${migration.name}`);
    } catch (error) {
      await db.exec("ROLLBACK").catch(() => {});
      // Another process may have applied it while this one waited for the lock.
      if ((await findApplied(db, migration.version)) === migration.checksum) continue;
      throw new MigrationError(`Migration ${migration.version}_${migration.name} failed: ${(error as Error).message}`);
    }
  }
  return applied;
}

async function findApplied(db: Db, version: string): Promise<string | undefined> {
  const { rows } = await db.query<{ checksum: string }>("SELECT checksum FROM schema_migrations WHERE version = $1", [version]);
  return rows[0]?.checksum;
}
