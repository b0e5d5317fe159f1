import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { type Config, fileStoreKind } from "../config/config.ts";
import type { Db } from "../db/db.ts";
import type { Log } from "../modules/telemetry/log.ts";
import { createDatabaseStore } from "./database-store.ts";
import { createFolderStore, digestsOf, type FileStore, isDigest } from "./file-store.ts";

type StartLog = Pick<Log, "info" | "warn">;

/** The file store ESS_FILE_STORE names (fileStoreKind gives its default). */
export async function openFileStore(
  config: Pick<Config, "ESS_FILE_STORE" | "DATABASE_URL" | "DATA_DIR">,
  db: Db,
  log: StartLog,
): Promise<FileStore> {
  const folder = join(config.DATA_DIR, "files");
  if (fileStoreKind(config) === "folder") return createFolderStore(folder);
  const store = createDatabaseStore(db);
  await importFolder(folder, db, store, log);
  return store;
}

/**
 * A console that kept its uploads in DATA_DIR/files and now keeps them in the database would
 * otherwise lose the packages its versions point at: the folder's files the database lacks are
 * copied in at start, one at a time (a file is read whole, as an upload is). The folder is left as
 * it was; once every process has started on the database it may be removed.
 */
async function importFolder(folder: string, db: Db, store: FileStore, log: StartLog) {
  const names = (await readdir(folder).catch(() => [] as string[])).filter(isDigest);
  if (names.length === 0) return;
  const { rows } = await db.query<{ sha256: string }>("SELECT sha256 FROM file_blob WHERE sha256 = ANY($1::text[])", [names]);
  const present = new Set(rows.map((r) => r.sha256));
  let copied = 0;
  for (const name of names) {
    if (present.has(name)) continue;
    const bytes = await readFile(join(folder, name));
    // A file whose bytes no longer match its name was damaged on disk: not carried over as if sound.
    if ((await digestsOf(bytes)).sha256 !== name) {
      log.warn({ file: join(folder, name) }, "an uploaded file does not match its digest and was not copied into the database");
      continue;
    }
    await store.put(bytes);
    copied += 1;
  }
  if (copied > 0)
    log.info({ folder, copied }, "uploaded files copied from the folder into the database (ESS_FILE_STORE=database)");
}
