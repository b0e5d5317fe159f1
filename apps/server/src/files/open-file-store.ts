import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { type Config, fileStoreKind } from "../config/config.ts";
import type { Db } from "../db/db.ts";
import type { Log } from "../modules/telemetry/log.ts";
import { createDatabaseStore } from "./database-store.ts";
import { createFolderStore, digestsOf, type FileStore, isDigest } from "./file-store.ts";
import { createS3Store, type S3StoreOptions } from "./s3-store.ts";

type StartLog = Pick<Log, "info" | "warn">;

type StoreConfig = Pick<Config, "ESS_FILE_STORE" | "DATABASE_URL" | "DATA_DIR"> &
  Partial<
    Pick<
      Config,
      | "ESS_S3_BUCKET"
      | "ESS_S3_ENDPOINT"
      | "ESS_S3_REGION"
      | "ESS_S3_PREFIX"
      | "ESS_S3_PATH_STYLE"
      | "ESS_S3_ACCESS_KEY_ID"
      | "ESS_S3_SECRET_ACCESS_KEY"
    >
  >;

/** The file store ESS_FILE_STORE names (fileStoreKind gives its default). */
export async function openFileStore(config: StoreConfig, db: Db, log: StartLog): Promise<FileStore> {
  const folder = join(config.DATA_DIR, "files");
  const kind = fileStoreKind(config);
  if (kind === "folder") return createFolderStore(folder);
  const store = kind === "s3" ? await createS3Store(s3Options(config)) : createDatabaseStore(db);
  try {
    await importFolder(folder, store, log);
  } catch (error) {
    store.close?.();
    throw error;
  }
  return store;
}

function s3Options(config: StoreConfig): S3StoreOptions {
  const key = config.ESS_S3_ACCESS_KEY_ID;
  const secret = config.ESS_S3_SECRET_ACCESS_KEY;
  return {
    bucket: config.ESS_S3_BUCKET as string,
    prefix: config.ESS_S3_PREFIX,
    endpoint: config.ESS_S3_ENDPOINT,
    region: config.ESS_S3_REGION ?? "us-east-1",
    pathStyle: config.ESS_S3_PATH_STYLE ? config.ESS_S3_PATH_STYLE === "on" : Boolean(config.ESS_S3_ENDPOINT),
    credentials: key && secret ? { accessKeyId: key, secretAccessKey: secret } : undefined,
  };
}

/**
 * A console that kept its uploads in DATA_DIR/files and now keeps them in the database or a bucket
 * would otherwise lose the packages its versions point at: the folder's files the store lacks are
 * copied in at start, one at a time (a file is read whole, as an upload is). The folder is left as
 * it was; once every process has started on the shared store it may be removed.
 */
async function importFolder(folder: string, store: FileStore, log: StartLog) {
  const names = (await readdir(folder).catch(() => [] as string[])).filter(isDigest);
  let copied = 0;
  for (const name of names) {
    if (await store.has(name)) continue;
    const bytes = await readFile(join(folder, name));
    // A file whose bytes no longer match its name was damaged on disk: not carried over as if sound.
    if ((await digestsOf(bytes)).sha256 !== name) {
      log.warn(
        { file: join(folder, name), store: store.kind },
        "an uploaded file does not match its digest and was not copied into the shared store",
      );
      continue;
    }
    await store.put(bytes);
    copied += 1;
  }
  if (copied > 0)
    log.info(
      { folder, copied, store: store.kind },
      `uploaded files copied from the folder into the shared store (ESS_FILE_STORE=${store.kind})`,
    );
}
