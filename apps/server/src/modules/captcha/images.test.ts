import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { CAPTCHA_SIZE, randomCaptchaText, renderCaptcha, renderSlidePuzzle, SLIDE_SIZE } from "./images.ts";

/** Reads width, height and the decoded RGBA rows of a PNG written by Raster. */
function decode(png: Buffer) {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const idatLength = png.readUInt32BE(33);
  expect(png.toString("ascii", 37, 41)).toBe("IDAT");
  const raw = inflateSync(png.subarray(41, 41 + idatLength));
  expect(raw.length).toBe((width * 4 + 1) * height);
  return { width, height, raw };
}

/** Pixels darker than mid-grey, read row by row (each row starts with its filter byte). */
function darkPixels(raw: Buffer, width: number, height: number) {
  let dark = 0;
  for (let y = 0; y < height; y++) {
    const row = y * (width * 4 + 1) + 1;
    for (let x = 0; x < width; x++) {
      const i = row + x * 4;
      if ((raw[i] as number) + (raw[i + 1] as number) + (raw[i + 2] as number) < 300) dark++;
    }
  }
  return dark;
}

describe("captcha images", () => {
  it("draws a readable-size PNG whose text comes from the alphabet without look-alikes", () => {
    for (let i = 0; i < 20; i++) expect(randomCaptchaText()).toMatch(/^[2-9A-HJ-NP-Z]{4}$/);
    const { width, height, raw } = decode(renderCaptcha("AB2Z"));
    expect([width, height]).toEqual([CAPTCHA_SIZE.width, CAPTCHA_SIZE.height]);
    // ink: a good share of dark pixels, not a blank picture
    expect(darkPixels(raw, width, height)).toBeGreaterThan(200);
  });

  it("draws different pictures for the same text", () => {
    expect(renderCaptcha("WXYZ").equals(renderCaptcha("WXYZ"))).toBe(false);
  });

  it("cuts the slide piece from the place it hides in the background", () => {
    const puzzle = renderSlidePuzzle();
    expect(decode(puzzle.background)).toMatchObject({ width: SLIDE_SIZE.width, height: SLIDE_SIZE.height });
    expect(decode(puzzle.piece)).toMatchObject({ width: SLIDE_SIZE.piece, height: SLIDE_SIZE.piece });
    expect(puzzle.x).toBeGreaterThanOrEqual(SLIDE_SIZE.piece + 20);
    expect(puzzle.x + SLIDE_SIZE.piece).toBeLessThanOrEqual(SLIDE_SIZE.width);
    expect(puzzle.y + SLIDE_SIZE.piece).toBeLessThanOrEqual(SLIDE_SIZE.height);
  });
});
