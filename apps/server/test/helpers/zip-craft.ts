import { crc32, createDeflateRaw, deflateRawSync } from "node:zlib";

/**
 * Zip archives as an attacker writes them: entries whose headers claim whatever the test says,
 * so the reader under test can be shown to count what it inflates rather than what it is told.
 */
export interface CraftedEntry {
  name: string;
  /** Raw deflate data (method 8), or the bytes stored as they are (method 0). */
  data: Buffer;
  method: 0 | 8;
  crc: number;
  /** The uncompressed size the headers claim. */
  claimedSize: number;
}

export const storedEntry = (name: string, bytes: Buffer): CraftedEntry => ({
  name,
  data: bytes,
  method: 0,
  crc: crc32(bytes),
  claimedSize: bytes.length,
});

export const deflatedEntry = (name: string, bytes: Buffer): CraftedEntry => ({
  name,
  data: deflateRawSync(bytes, { level: 9 }),
  method: 8,
  crc: crc32(bytes),
  claimedSize: bytes.length,
});

/** `total` bytes of `pattern` repeated, deflated as a stream (never held whole in memory). */
export async function deflatedRepeat(name: string, pattern: string, total: number): Promise<CraftedEntry> {
  const chunk = Buffer.from(pattern.repeat(Math.ceil((1024 * 1024) / pattern.length)).slice(0, 1024 * 1024));
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on("data", (b: Buffer) => out.push(b));
  const done = new Promise((resolve) => deflate.on("end", resolve));
  let crc = 0;
  for (let sent = 0; sent < total; sent += chunk.length) {
    const piece = chunk.subarray(0, Math.min(chunk.length, total - sent));
    crc = crc32(piece, crc);
    if (!deflate.write(piece)) await new Promise((resolve) => deflate.once("drain", resolve));
  }
  deflate.end();
  await done;
  return { name, data: Buffer.concat(out), method: 8, crc, claimedSize: total };
}

/** The archive: local headers and data, central directory, end record. */
export function craftZip(entries: CraftedEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, "utf8");
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // names in UTF-8
    local.writeUInt16LE(e.method, 8);
    local.writeUInt32LE(e.crc >>> 0, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.claimedSize, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(e.method, 10);
    central.writeUInt32LE(e.crc >>> 0, 16);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(e.claimedSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, e.data);
    centrals.push(central, name);
    offset += local.length + name.length + e.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
