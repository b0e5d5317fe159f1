import { describe, expect, it } from "vitest";
import { declaredSize } from "./image-header.ts";
import { attachmentDisposition } from "./media.routes.ts";

const jpegWithFrame = (width: number, height: number) =>
  Buffer.from([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0x00,
    0x04,
    0x00,
    0x00, // SOI, APP0 of 2 bytes
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x03,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
  ]);

describe("declaredSize", () => {
  it("reads a JPEG's first frame header past other segments", () => {
    expect(declaredSize(jpegWithFrame(4000, 3000), "image/jpeg")).toEqual({ width: 4000, height: 3000 });
  });

  it("answers null for headers cut short or malformed, without reading past the bytes", () => {
    expect(declaredSize(Buffer.from([0xff, 0xd8, 0xff]), "image/jpeg")).toBeNull();
    expect(declaredSize(Buffer.from([0xff, 0xd8, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0]), "image/jpeg")).toBeNull();
    expect(declaredSize(Buffer.alloc(20), "image/png")).toBeNull();
    expect(declaredSize(Buffer.alloc(8), "image/gif")).toBeNull();
    expect(declaredSize(Buffer.from("RIFF....WEBPXXXX"), "image/webp")).toBeNull();
    expect(declaredSize(jpegWithFrame(1, 1), "image/tiff")).toBeNull();
  });

  it("reads a GIF's logical screen", () => {
    const gif = Buffer.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x40, 0x01, 0xf0, 0x00]);
    expect(declaredSize(gif, "image/gif")).toEqual({ width: 320, height: 240 });
  });
});

describe("attachmentDisposition", () => {
  it("gives an ASCII fallback and the real name RFC 5987-encoded, with nothing that ends the header value", () => {
    expect(attachmentDisposition('a"b\\c;.pdf')).toBe(`attachment; filename="a_b_c;.pdf"; filename*=UTF-8''a%22b%5Cc%3B.pdf`);
    expect(attachmentDisposition("説明書.pdf")).toBe(
      `attachment; filename="___.pdf"; filename*=UTF-8''%E8%AA%AC%E6%98%8E%E6%9B%B8.pdf`,
    );
  });
});
