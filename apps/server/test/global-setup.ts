import { createHash } from "node:crypto";
import { existsSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { migrate, readMigrations } from "../src/db/migrate.ts";
import { openPglite } from "../src/db/pglite.driver.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A tar of a migrated PGlite data folder; each test file starts its database from it. */
    pgliteSnapshot: string | null;
  }
}

/**
 * initdb costs PGlite about four seconds, loading a dump well under one; so the migrated
 * database is dumped once (per set of migrations) and every test file loads a copy.
 */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) {
    project.provide("pgliteSnapshot", null);
    return;
  }
  // Named by a digest of every migration's checksum: a change to any of them, not only the newest
  // few, makes a new snapshot.
  const key = createHash("sha256")
    .update(
      readMigrations()
        .map((m) => m.checksum)
        .join(","),
    )
    .digest("hex");
  const file = join(tmpdir(), `ess-pglite-${key.slice(0, 32)}-${readMigrations().length}.tar`);
  if (!existsSync(file)) {
    const db = await openPglite(undefined);
    await migrate(db);
    const dump = await db.dump();
    writeFileSync(`${file}.partial`, Buffer.from(await dump.arrayBuffer()));
    await db.close();
    renameSync(`${file}.partial`, file);
  }
  project.provide("pgliteSnapshot", file);
}
