import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Config } from "../config/config.ts";
import type { Db } from "./db.ts";
import { openPglite } from "./pglite.driver.ts";
import { openPostgres } from "./postgres.driver.ts";

export class DataDirInUseError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PGlite has no server process guarding its files, so a pid file keeps a second console from
 * opening the same folder and corrupting it.
 */
function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "server.pid");
  try {
    const pid = Number(readFileSync(file, "utf8"));
    if (pid && pid !== process.pid && isAlive(pid)) {
      throw new DataDirInUseError(
        `The data folder ${resolve(dir)} is in use by another ESS Console (pid ${pid}); stop it or set DATA_DIR.`,
      );
    }
  } catch (error) {
    if (error instanceof DataDirInUseError) throw error;
  }
  writeFileSync(file, String(process.pid));
  return () => rmSync(file, { force: true });
}

/** PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR/pgdata. */
export async function openDatabase(config: Config): Promise<Db> {
  if (config.DATABASE_URL) {
    return openPostgres({
      url: config.DATABASE_URL,
      poolSize: config.DATABASE_POOL_SIZE,
      connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    });
  }
  const unlock = lockDataDir(config.DATA_DIR);
  try {
    const db = await openPglite(join(config.DATA_DIR, "pgdata"));
    return {
      ...db,
      async close() {
        await db.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}
