/**
 * The size in pixels a picture declares in its header, read without decoding it, so a small file
 * that unpacks to a huge bitmap (a "pixel flood") is refused before any decoder allocates it.
 * PNG (IHDR), GIF (logical screen), JPEG (first SOFn marker), WebP (VP8, VP8L, VP8X). Null when
 * the header cannot be read.
 */
export function declaredSize(bytes: Uint8Array, contentType: string): { width: number; height: number } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const has = (n: number) => bytes.length >= n;
  switch (contentType) {
    case "image/png":
      return has(24) ? { width: view.getUint32(16), height: view.getUint32(20) } : null;
    case "image/gif":
      return has(10) ? { width: view.getUint16(6, true), height: view.getUint16(8, true) } : null;
    case "image/jpeg": {
      let at = 2;
      while (at + 9 < bytes.length) {
        if (bytes[at] !== 0xff) return null;
        const marker = bytes[at + 1] as number;
        if (marker === 0xff) {
          at++;
          continue;
        }
        const length = view.getUint16(at + 2);
        const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
        if (isFrame) return { height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
        at += 2 + length;
      }
      return null;
    }
    case "image/webp": {
      if (!has(30)) return null;
      const chunk = String.fromCharCode(...bytes.subarray(12, 16));
      if (chunk === "VP8 ") return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
      if (chunk === "VP8L") {
        const b = view.getUint32(21, true);
        return { width: (b & 0x3fff) + 1, height: ((b >> 14) & 0x3fff) + 1 };
      }
      if (chunk === "VP8X") {
        const w = (bytes[24] as number) | ((bytes[25] as number) << 8) | ((bytes[26] as number) << 16);
        const h = (bytes[27] as number) | ((bytes[28] as number) << 8) | ((bytes[29] as number) << 16);
        return { width: w + 1, height: h + 1 };
      }
      return null;
    }
    default:
      return null;
  }
}
