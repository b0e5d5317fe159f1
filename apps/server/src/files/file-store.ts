import { createHash, randomBytes } from "node:crypto";
import { createReadStream, type ReadStream } from "node:fs";
import { mkdir, rename, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { crc32 } from "node:zlib";

export interface StoredBytes {
  sha256: string;
  crc32: string;
  size: number;
}

/**
 * Uploaded files on disk (`DATA_DIR/files`), named by their SHA-256 digest: the same package
 * uploaded twice is stored once, and a name can never point at other bytes. Written to a
 * temporary name and renamed, so a crash never leaves half a file under a digest.
 */
// A 64 MB package takes SHA-256 and CRC-32 over 100 ms: in slices, with the event loop free between.
const SLICE_BYTES = 4 * 1024 * 1024;

async function digestsOf(bytes: Uint8Array): Promise<{ sha256: string; crc32: string }> {
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

export function createFileStore(dir: string) {
  const ready = mkdir(dir, { recursive: true });
  const pathOf = (sha256: string) => {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error("not a SHA-256 digest");
    return join(dir, sha256);
  };
  return {
    dir,
    async put(bytes: Uint8Array): Promise<StoredBytes> {
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
    /** The stored bytes of a digest as a stream (rejects when the file is missing). */
    async open(sha256: string): Promise<{ stream: ReadStream; size: number }> {
      const path = pathOf(sha256);
      const { size } = await stat(path);
      return { stream: createReadStream(path), size };
    },
    pathOf,
  };
}

export type FileStore = ReturnType<typeof createFileStore>;
