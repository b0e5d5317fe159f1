import { inflateSync } from "node:zlib";

interface Bitmap {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/** Decodes the server's PNGs (8-bit RGBA, filter 0 on every row: what its encoder writes). */
export function decodePng(dataUrl: string): Bitmap {
  const png = Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ""), "base64");
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const chunks: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString("ascii", at + 4, at + 8) === "IDAT") chunks.push(png.subarray(at + 8, at + 8 + length));
    at += length + 12;
  }
  const raw = inflateSync(Buffer.concat(chunks));
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    if (raw[y * (width * 4 + 1)] !== 0) throw new Error("unexpected PNG filter");
    rgba.set(raw.subarray(y * (width * 4 + 1) + 1, (y + 1) * (width * 4 + 1)), y * width * 4);
  }
  return { width, height, rgba };
}

/**
 * Finds where the slide piece fits, the way an eye does: the gap shows the piece's own picture,
 * darkened. Tries every column and keeps the one where the background best matches the darkened
 * piece (the test plays the user; the server alone knows the answer).
 */
export function solveSlide(background: string, piece: string, y: number): number {
  const bg = decodePng(background);
  const pc = decodePng(piece);
  let best = { x: 0, score: Number.POSITIVE_INFINITY };
  for (let x = 0; x + pc.width <= bg.width; x++) {
    let score = 0;
    for (let py = 0; py < pc.height; py++) {
      for (let px = 0; px < pc.width; px++) {
        const p = (py * pc.width + px) * 4;
        if (pc.rgba[p + 3] !== 255) continue;
        const b = ((y + py) * bg.width + x + px) * 4;
        for (let c = 0; c < 3; c++) score += Math.abs((bg.rgba[b + c] as number) - 0.45 * (pc.rgba[p + c] as number));
      }
    }
    if (score < best.score) best = { x, score };
  }
  return best.x;
}
