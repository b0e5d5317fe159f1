import { crc32, deflateSync } from "node:zlib";

/**
 * A small RGBA canvas and PNG encoder in plain TypeScript: the captcha and slide images are drawn
 * on the server without a native graphics add-on.
 */
export class Raster {
  readonly width: number;
  readonly height: number;
  readonly pixels: Uint8Array;

  constructor(width: number, height: number) {
    this.width = width;
    this.height = height;
    this.pixels = new Uint8Array(width * height * 4);
  }

  /** Blends a colour over the pixel at (x, y) with opacity `alpha` (0..1); outside is ignored. */
  blend(x: number, y: number, [r, g, b]: readonly number[], alpha = 1) {
    const xi = Math.round(x);
    const yi = Math.round(y);
    if (xi < 0 || yi < 0 || xi >= this.width || yi >= this.height) return;
    const i = (yi * this.width + xi) * 4;
    const p = this.pixels;
    const keep = 1 - alpha;
    p[i] = Math.round((p[i] as number) * keep + (r as number) * alpha);
    p[i + 1] = Math.round((p[i + 1] as number) * keep + (g as number) * alpha);
    p[i + 2] = Math.round((p[i + 2] as number) * keep + (b as number) * alpha);
    p[i + 3] = Math.max(p[i + 3] as number, Math.round(255 * alpha));
  }

  get(x: number, y: number): [number, number, number, number] {
    const i = (y * this.width + x) * 4;
    const p = this.pixels;
    return [p[i] as number, p[i + 1] as number, p[i + 2] as number, p[i + 3] as number];
  }

  set(x: number, y: number, rgba: readonly number[]) {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    this.pixels.set(rgba.slice(0, 4), (y * this.width + x) * 4);
  }

  fill(colour: readonly number[]) {
    for (let y = 0; y < this.height; y++) for (let x = 0; x < this.width; x++) this.set(x, y, [...colour.slice(0, 3), 255]);
  }

  line(x0: number, y0: number, x1: number, y1: number, colour: readonly number[], alpha = 1) {
    const steps = Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0), 1);
    for (let s = 0; s <= steps; s++) this.blend(x0 + ((x1 - x0) * s) / steps, y0 + ((y1 - y0) * s) / steps, colour, alpha);
  }

  disc(cx: number, cy: number, radius: number, colour: readonly number[], alpha = 1) {
    for (let y = Math.floor(cy - radius); y <= cy + radius; y++) {
      for (let x = Math.floor(cx - radius); x <= cx + radius; x++) {
        if ((x - cx) ** 2 + (y - cy) ** 2 <= radius * radius) this.blend(x, y, colour, alpha);
      }
    }
  }

  /** Encodes as PNG (8-bit RGBA, no interlace). */
  toPng(): Buffer {
    const row = this.width * 4 + 1;
    const raw = Buffer.alloc(row * this.height);
    for (let y = 0; y < this.height; y++) {
      raw[y * row] = 0; // filter: none
      raw.set(this.pixels.subarray(y * this.width * 4, (y + 1) * this.width * 4), y * row + 1);
    }
    const header = Buffer.alloc(13);
    header.writeUInt32BE(this.width, 0);
    header.writeUInt32BE(this.height, 4);
    header.set([8, 6, 0, 0, 0], 8);
    return Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk("IHDR", header),
      chunk("IDAT", deflateSync(raw)),
      chunk("IEND", Buffer.alloc(0)),
    ]);
  }
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
