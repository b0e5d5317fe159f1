import { Readable } from "node:stream";
import type { CopyType } from "../db/copy-binary.ts";
import type { Db } from "../db/db.ts";
import { digestsOf, type FileStore, isDigest } from "./file-store.ts";

/**
 * Bytes per stored chunk: a 64 MB package is 64 rows, and a download holds about one chunk in
 * memory at a time (two while the next is read), never the whole file.
 */
export const CHUNK_BYTES = 1024 * 1024;

const CHUNK_COLUMNS = ["sha256", "seq", "bytes"];
const CHUNK_TYPES: CopyType[] = ["text", "int4", "bytea"];

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * Uploaded files in the database (tables file_blob and file_chunk, migration 0285), so that any
 * console process on it serves a package another one took in. bytea chunks rather than large
 * objects: the same statements on PGlite and PostgreSQL, replicated and dumped with the tables.
 */
export function createDatabaseStore(db: Db): FileStore {
  const has = async (sha256: string) => (await db.query("SELECT 1 FROM file_blob WHERE sha256 = $1", [sha256])).rows.length > 0;
  return {
    kind: "database",
    has,
    async put(bytes) {
      const { sha256, crc32 } = await digestsOf(bytes);
      if (!(await has(sha256))) {
        // One transaction: a crash or a refused statement leaves no file_blob row without all its chunks.
        await db.transaction(async (tx) => {
          // Two uploads of the same bytes at once: the second waits here for the first and, once
          // that has committed, inserts nothing and writes no chunks.
          const claimed = await tx.query(
            "INSERT INTO file_blob (sha256, size, crc32) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING",
            [sha256, bytes.length, crc32],
          );
          if (claimed.rowCount === 0) return;
          // Binary COPY, one chunk at a time: PGlite takes a bytea parameter as hex text, seven times
          // slower; and one COPY of every chunk would hold a second copy of the whole file.
          for (let seq = 0; seq * CHUNK_BYTES < bytes.length; seq++) {
            const chunk = bytes.subarray(seq * CHUNK_BYTES, (seq + 1) * CHUNK_BYTES);
            await tx.copyRows("file_chunk", CHUNK_COLUMNS, [[sha256, seq, chunk]], CHUNK_TYPES);
          }
        });
      }
      return { sha256, crc32, size: bytes.length };
    },
    async open(sha256) {
      if (!isDigest(sha256)) throw new Error("not a SHA-256 digest");
      const found = await db.query<{ size: number }>("SELECT size FROM file_blob WHERE sha256 = $1", [sha256]);
      const row = found.rows[0];
      if (!row) throw new Error(`no stored file ${sha256}`);
      const size = Number(row.size);
      let seq = 0;
      let read = 0;
      // Node asks for the next chunk only when the previous one has been pushed and the reader has
      // taken the buffer below its mark: a slow device slows the reads, it does not fill memory.
      const stream = new Readable({
        read() {
          if (read >= size) {
            this.push(null);
            return;
          }
          db.query<{ bytes: Uint8Array }>("SELECT bytes FROM file_chunk WHERE sha256 = $1 AND seq = $2", [sha256, seq]).then(
            ({ rows }) => {
              if (this.destroyed) return;
              const bytes = rows[0]?.bytes;
              if (!bytes || bytes.length === 0 || read + bytes.length > size) {
                this.destroy(new Error(`chunk ${seq} of stored file ${sha256} is missing or too long`));
                return;
              }
              seq += 1;
              read += bytes.length;
              this.push(asBuffer(bytes));
              if (read === size) this.push(null);
            },
            (error: Error) => this.destroy(error),
          );
        },
      });
      return { stream, size };
    },
  };
}
