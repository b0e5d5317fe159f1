import type { Readable } from "node:stream";
import yauzl, { type Entry, type ZipFile } from "yauzl";

/**
 * What an archive may unpack to, counted on the bytes actually inflated, never on the sizes its
 * headers claim: a 342 kB workbook can say 4 kB and hold 256 MB.
 */
export interface UnzipLimits {
  /** Entries (files and folders) in the archive. */
  maxEntries: number;
  /** Bytes inflated in all, over every entry. */
  maxBytes: number;
  /** Inflated to compressed bytes of one entry, checked once it has inflated `ratioFloorBytes`. */
  maxRatio: number;
  ratioFloorBytes: number;
}

export type UnzipRefusal = "unreadable" | "entries" | "bytes" | "ratio" | "nested";

export class UnzipRefused extends Error {
  readonly reason: UnzipRefusal;
  constructor(reason: UnzipRefusal, detail?: string) {
    super(detail ? `${reason}: ${detail}` : reason);
    this.reason = reason;
  }
}

// An archive inside the archive (zip, gzip) is never unpacked, so it would pass every bound.
const isArchive = (bytes: Buffer) =>
  (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) || (bytes[0] === 0x1f && bytes[1] === 0x8b);

const open = (data: Buffer) =>
  new Promise<ZipFile>((resolve, reject) =>
    // yauzl checks each entry's inflated size against its header as it streams (validateEntrySizes)
    // and refuses names that climb out of the archive (strictFileNames, decodeStrings).
    yauzl.fromBuffer(data, { lazyEntries: true, validateEntrySizes: true, strictFileNames: true }, (error, zip) =>
      error || !zip ? reject(new UnzipRefused("unreadable", error?.message)) : resolve(zip),
    ),
  );

/**
 * Every file of a zip archive, inflated within `limits`: the first byte past a bound stops the
 * inflation and refuses the archive, whatever its headers say. Inflation runs in zlib streams
 * (libuv's thread pool), a chunk at a time.
 */
export async function unzipBounded(data: Buffer, limits: UnzipLimits): Promise<Map<string, Buffer>> {
  const zip = await open(data);
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw new UnzipRefused("entries");
  }
  const files = new Map<string, Buffer>();
  let total = 0;
  let seen = 0;

  const readEntry = (entry: Entry) =>
    new Promise<Buffer>((resolve, reject) => {
      zip.openReadStream(entry, (error, stream: Readable | undefined) => {
        if (error || !stream) return reject(new UnzipRefused("unreadable", error?.message));
        const chunks: Buffer[] = [];
        let inflated = 0;
        // yauzl reads no more than the entry's compressed size, and never past the archive.
        const packed = Math.max(1, Math.min(entry.compressedSize, data.length));
        const stop = (refusal: UnzipRefused) => {
          stream.destroy();
          reject(refusal);
        };
        stream.on("data", (chunk: Buffer) => {
          inflated += chunk.length;
          total += chunk.length;
          if (total > limits.maxBytes) return stop(new UnzipRefused("bytes"));
          if (inflated > limits.ratioFloorBytes && inflated / packed > limits.maxRatio) return stop(new UnzipRefused("ratio"));
          chunks.push(chunk);
        });
        stream.on("error", (e: Error) => reject(e instanceof UnzipRefused ? e : new UnzipRefused("unreadable", e.message)));
        stream.on("end", () => resolve(Buffer.concat(chunks)));
      });
    });

  try {
    await new Promise<void>((resolve, reject) => {
      zip.on("error", (e: Error) => reject(new UnzipRefused("unreadable", e.message)));
      zip.on("end", () => resolve());
      zip.on("entry", (entry: Entry) => {
        if (++seen > limits.maxEntries) return reject(new UnzipRefused("entries"));
        if (entry.fileName.endsWith("/")) return zip.readEntry();
        readEntry(entry).then((bytes) => {
          if (isArchive(bytes)) return reject(new UnzipRefused("nested", entry.fileName));
          if (files.has(entry.fileName)) return reject(new UnzipRefused("unreadable", `${entry.fileName} twice`));
          files.set(entry.fileName, bytes);
          zip.readEntry();
        }, reject);
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return files;
}
