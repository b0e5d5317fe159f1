import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync, renameSync, rmSync } from "node:fs";
import { cp } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { migrate, readMigrations } from "../../src/db/migrate.ts";
import { openPglite } from "../../src/db/pglite.driver.ts";

/**
 * A console started on an empty DATA_DIR spends most of its start in PGlite's initdb (4–8 s on
 * two cores) before it migrates. Tests that start whole consoles (in process or as server
 * processes, some eighty a run) begin instead from a copy of one migrated data folder, made
 * once per machine for each set of migrations and PGlite release: the same folder the console
 * would have made itself, so its start then finds every migration applied and seeds as always.
 * Consoles that test the first start itself (scripts, server-process tests) still run initdb.
 */

/** The PGlite release: a folder made by one may not open in another. */
function pgliteVersion(): string {
  // The package exports no package.json: found from its entry point upwards.
  let dir = dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"));
  for (; dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
    if (pkg.name === "@electric-sql/pglite") return pkg.version ?? "";
  }
  return "";
}

let template: Promise<string> | null = null;

/** The migrated folder, made on first use; several test workers making it at once keep one. */
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const migrations = readMigrations();
    const key = createHash("sha256")
      .update(`${pgliteVersion()}:${migrations.map((m) => m.checksum).join(",")}`)
      .digest("hex")
      .slice(0, 32);
    const folder = join(tmpdir(), `ess-pgdata-${key}-${migrations.length}`);
    if (existsSync(folder)) return folder;
    const building = `${folder}.building-${process.pid}-${randomBytes(4).toString("hex")}`;
    const db = await openPglite(building);
    await migrate(db);
    await db.close();
    try {
      // Atomic: the folder appears whole or not at all. Another worker that got there first wins.
      renameSync(building, folder);
    } catch {
      rmSync(building, { recursive: true, force: true });
    }
    return folder;
  })().catch((error: unknown) => {
    template = null;
    throw error;
  });
  return template;
}

/** Gives `dataDir` a migrated PGlite database, unless it already holds one. */
export async function seedMigratedPglite(dataDir: string): Promise<void> {
  const target = join(dataDir, "pgdata");
  if (existsSync(target)) return;
  await cp(await migratedTemplate(), target, { recursive: true });
}
