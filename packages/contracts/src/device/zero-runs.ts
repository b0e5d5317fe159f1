/**
 * Zero-run packing of register words, for storing frames: a frame's words are mostly zero (unused
 * alarm bits, absent meter circuits, empty cell slots), so each run of zero words becomes one zero
 * word and the run's length. Lossless and cheap; a full three-phase frame shrinks to about a third.
 *
 *   packed := ( nonZeroWord | 0x0000 runLength )*      all u16 big-endian, runLength ≥ 1
 */
// Reused output buffer (worst case: every zero word stands alone and takes four bytes, not two).
let scratch = new Uint8Array(8192);

export function packZeroRuns(bytes: Uint8Array): Buffer {
  const n = bytes.length;
  if (n % 2 !== 0) throw new Error("register words come in pairs of bytes");
  if (scratch.length < n * 2) scratch = new Uint8Array(n * 2);
  const out = scratch;
  let o = 0;
  let i = 0;
  while (i < n) {
    const hi = bytes[i] as number;
    const lo = bytes[i + 1] as number;
    if ((hi | lo) !== 0) {
      out[o] = hi;
      out[o + 1] = lo;
      o += 2;
      i += 2;
      continue;
    }
    let run = 1;
    i += 2;
    while (i < n && ((bytes[i] as number) | (bytes[i + 1] as number)) === 0 && run < 0xffff) {
      run++;
      i += 2;
    }
    out[o] = 0;
    out[o + 1] = 0;
    out[o + 2] = run >> 8;
    out[o + 3] = run & 0xff;
    o += 4;
  }
  return Buffer.from(out.subarray(0, o));
}

export function unpackZeroRuns(packed: Uint8Array): Buffer {
  let size = 0;
  for (let i = 0; i < packed.length; i += 2) {
    if (packed[i] === 0 && packed[i + 1] === 0) {
      size += (((packed[i + 2] as number) << 8) | (packed[i + 3] as number)) * 2;
      i += 2;
    } else size += 2;
  }
  const out = Buffer.alloc(size);
  let o = 0;
  for (let i = 0; i < packed.length; i += 2) {
    if (packed[i] === 0 && packed[i + 1] === 0) {
      o += (((packed[i + 2] as number) << 8) | (packed[i + 3] as number)) * 2;
      i += 2;
    } else {
      out[o++] = packed[i] as number;
      out[o++] = packed[i + 1] as number;
    }
  }
  return out;
}
