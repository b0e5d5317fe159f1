import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { text } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db, Tx } from "../../src/db/db.ts";
import { CHUNK_BYTES, createDatabaseStore } from "../../src/files/database-store.ts";
import { createFolderStore } from "../../src/files/file-store.ts";
import { openFileStore } from "../../src/files/open-file-store.ts";
import { tempDataDir } from "../helpers/server-process.ts";
import { createTestDb, TEST_DRIVER } from "../helpers/test-db.ts";

/** Everything a stream gives, as one buffer. */
async function drain(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.from(part as Buffer));
  return Buffer.concat(parts);
}

const silent = { info() {}, warn() {} };

describe(`the database file store (${TEST_DRIVER})`, () => {
  let db: Db;
  beforeAll(async () => {
    db = await createTestDb();
  });
  afterAll(() => db?.close());

  const blobCount = async (sha256: string) =>
    (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM file_blob WHERE sha256 = $1", [sha256])).rows[0]?.n;
  const chunkCount = async (sha256: string) =>
    (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM file_chunk WHERE sha256 = $1", [sha256])).rows[0]?.n;

  it("gives back a file of several chunks byte for byte, with the digests the folder store gives", async () => {
    const bytes = randomBytes(3 * CHUNK_BYTES + 12_345);
    const stored = await createDatabaseStore(db).put(bytes);
    const inFolder = await createFolderStore(tempDataDir("ess-files-")).put(bytes);
    expect(stored).toEqual(inFolder);
    expect(stored.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
    expect(await chunkCount(stored.sha256)).toBe(4);
    // Another store on the same database (as another process would have) reads it.
    const { stream, size } = await createDatabaseStore(db).open(stored.sha256);
    expect(size).toBe(bytes.length);
    expect(Buffer.compare(await drain(stream), bytes)).toBe(0);
  });

  it("keeps the same bytes once however often and however concurrently they are uploaded", async () => {
    const store = createDatabaseStore(db);
    const bytes = randomBytes(CHUNK_BYTES + 1);
    const answers = await Promise.all([store.put(bytes), store.put(bytes), store.put(Buffer.from(bytes))]);
    expect(new Set(answers.map((a) => a.sha256)).size).toBe(1);
    const again = await store.put(bytes);
    expect(again).toEqual(answers[0]);
    expect(await blobCount(again.sha256)).toBe(1);
    expect(await chunkCount(again.sha256)).toBe(2);
  });

  it("refuses a digest it does not hold, and a name that is no digest", async () => {
    const store = createDatabaseStore(db);
    await expect(store.open("0".repeat(64))).rejects.toThrow(/no stored file/);
    await expect(store.open("../../etc/passwd")).rejects.toThrow(/not a SHA-256 digest/);
  });

  it("leaves nothing under a digest when the upload fails halfway, and takes the same file again", async () => {
    let inserts = 0;
    // The third chunk's insert fails (the disk full, the connection lost).
    const failing: Db = {
      ...db,
      transaction: (fn) =>
        db.transaction((tx) =>
          fn({
            ...tx,
            copyRows: async (table, columns, rows, types) => {
              if (table === "file_chunk" && ++inserts === 3) throw new Error("disk full");
              return tx.copyRows(table, columns, rows, types);
            },
          } satisfies Tx),
        ),
    };
    const bytes = randomBytes(4 * CHUNK_BYTES);
    await expect(createDatabaseStore(failing).put(bytes)).rejects.toThrow("disk full");
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    expect(await blobCount(sha256)).toBe(0);
    expect(await chunkCount(sha256)).toBe(0);
    await expect(createDatabaseStore(db).open(sha256)).rejects.toThrow(/no stored file/);
    await createDatabaseStore(failing).put(bytes);
    const { stream } = await createDatabaseStore(db).open(sha256);
    expect(Buffer.compare(await drain(stream), bytes)).toBe(0);
  });

  it("reads a chunk only when the reader has taken the one before (a slow download holds little memory)", async () => {
    const bytes = randomBytes(6 * CHUNK_BYTES);
    const stored = await createDatabaseStore(db).put(bytes);
    let reads = 0;
    const counting: Db = {
      ...db,
      query: (sql, params) => {
        if (sql.includes("FROM file_chunk")) reads += 1;
        return db.query(sql, params);
      },
    };
    const { stream } = await createDatabaseStore(counting).open(stored.sha256);
    const reader = stream[Symbol.asyncIterator]();
    const firstPart = (await reader.next()).value as Buffer;
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The first chunk taken and at most the next one or two waiting: not all six read ahead.
    expect(reads).toBeLessThanOrEqual(3);
    const rest: Buffer[] = [firstPart];
    for (let next = await reader.next(); !next.done; next = await reader.next()) rest.push(next.value as Buffer);
    expect(reads).toBe(6);
    expect(Buffer.compare(Buffer.concat(rest), bytes)).toBe(0);
  });

  it("copies the files of DATA_DIR/files into the database at start, except one damaged on disk", async () => {
    const dataDir = tempDataDir("ess-import-");
    const folder = join(dataDir, "files");
    mkdirSync(folder, { recursive: true });
    const sound = Buffer.from("a package uploaded before the console moved its files to the database");
    const soundName = createHash("sha256").update(sound).digest("hex");
    writeFileSync(join(folder, soundName), sound);
    const damagedName = createHash("sha256").update("the bytes once uploaded").digest("hex");
    writeFileSync(join(folder, damagedName), "bytes changed on disk since");
    const warnings: string[] = [];
    const store = await openFileStore({ DATA_DIR: dataDir, DATABASE_URL: "postgres://db/ess" }, db, {
      ...silent,
      warn: (_details, message) => warnings.push(message),
    });
    expect(store.kind).toBe("database");
    expect(await text((await store.open(soundName)).stream)).toBe(sound.toString());
    await expect(store.open(damagedName)).rejects.toThrow(/no stored file/);
    expect(warnings).toEqual(["an uploaded file does not match its digest and was not copied into the shared store"]);
    // Without DATABASE_URL nor ESS_FILE_STORE the folder itself is the store.
    const folderStore = await openFileStore({ DATA_DIR: dataDir }, db, silent);
    expect(folderStore.kind).toBe("folder");
  });
});
