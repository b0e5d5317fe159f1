/**
 * What an .xlsx (a zip archive) unpacks to, read from its central directory without unpacking
 * anything: a 900 kB upload can hold gigabytes of repeated cells, which the workbook reader would
 * unpack into memory. Null when the archive's directory cannot be read (not a zip, or zip64, which
 * no workbook of an import's size needs).
 */
export function unpackedSize(data: Buffer): { bytes: number; entries: number } | null {
  const END = 0x06054b50;
  const ENTRY = 0x02014b50;
  if (data.length < 22) return null;
  // The end record is the last 22 bytes, before a comment of at most 65,535.
  let end = -1;
  for (let i = data.length - 22; i >= Math.max(0, data.length - 22 - 65_535); i--) {
    if (data.readUInt32LE(i) === END) {
      end = i;
      break;
    }
  }
  if (end < 0) return null;
  const entries = data.readUInt16LE(end + 10);
  let at = data.readUInt32LE(end + 16);
  let bytes = 0;
  for (let n = 0; n < entries; n++) {
    if (at + 46 > data.length || data.readUInt32LE(at) !== ENTRY) return null;
    const size = data.readUInt32LE(at + 24);
    if (size === 0xffffffff) return null;
    bytes += size;
    at += 46 + data.readUInt16LE(at + 28) + data.readUInt16LE(at + 30) + data.readUInt16LE(at + 32);
  }
  return { bytes, entries };
}
