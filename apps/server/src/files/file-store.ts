import { createHash, randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, rename, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { crc32 } from "node:zlib";

export interface StoredBytes {
  sha256: string;
  crc32: string;
  size: number;
}

/**
 * Where uploaded files (firmware packages, images) are kept, named by their SHA-256 digest: the
 * same bytes uploaded twice are stored once, and a name can never point at other bytes. A
 * folder of this process (`folder`, below), the database every process reaches (`database`,
 * database-store.ts) or an S3-compatible bucket (`s3`, s3-store.ts), chosen by ESS_FILE_STORE
 * (open-file-store.ts).
 */
export interface FileStore {
  readonly kind: "folder" | "database" | "s3";
  put(bytes: Uint8Array): Promise<StoredBytes>;
  /** The stored bytes of a digest as a stream (rejects when there are none). */
  open(sha256: string): Promise<{ stream: Readable; size: number }>;
  /** Whether bytes of this digest are stored. */
  has(sha256: string): Promise<boolean>;
  /** Lets go of connections the store holds (at the console's stop). */
  close?(): void;
}

// A 64 MB package takes SHA-256 and CRC-32 over 100 ms: in slices, with the event loop free between.
const SLICE_BYTES = 4 * 1024 * 1024;

export async function digestsOf(bytes: Uint8Array): Promise<{ sha256: string; crc32: string }> {
  const sha = createHash("sha256");
  let crc = 0;
  for (let at = 0; at < bytes.length; at += SLICE_BYTES) {
    const part = bytes.subarray(at, at + SLICE_BYTES);
    sha.update(part);
    crc = crc32(part, crc);
    if (at + SLICE_BYTES < bytes.length) await new Promise((resolve) => setImmediate(resolve));
  }
  return { sha256: sha.digest("hex"), crc32: crc.toString(16).padStart(8, "0") };
}

export const isDigest = (text: string) => /^[0-9a-f]{64}$/.test(text);

function checkDigest(sha256: string) {
  if (!isDigest(sha256)) throw new Error("not a SHA-256 digest");
}

/**
 * Uploaded files on disk (`DATA_DIR/files`), reachable by this process only. Written to a
 * temporary name and renamed, so a crash never leaves half a file under a digest.
 */
export function createFolderStore(dir: string): FileStore {
  const ready = mkdir(dir, { recursive: true });
  const pathOf = (sha256: string) => {
    checkDigest(sha256);
    return join(dir, sha256);
  };
  return {
    kind: "folder",
    async put(bytes) {
      await ready;
      const { sha256, crc32: crc } = await digestsOf(bytes);
      const target = pathOf(sha256);
      const exists = await stat(target).then(
        (s) => s.size === bytes.length,
        () => false,
      );
      if (!exists) {
        const temp = join(dir, `.${sha256}.${randomBytes(4).toString("hex")}.tmp`);
        await writeFile(temp, bytes);
        await rename(temp, target);
      }
      return { sha256, crc32: crc, size: bytes.length };
    },
    async open(sha256) {
      const path = pathOf(sha256);
      const { size } = await stat(path);
      return { stream: createReadStream(path), size };
    },
    async has(sha256) {
      return stat(pathOf(sha256)).then(
        () => true,
        () => false,
      );
    },
  };
}
