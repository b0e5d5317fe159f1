import { randomInt } from "node:crypto";
import { CAPTCHA_ALPHABET, GLYPHS } from "./glyphs.ts";
import { Raster } from "./raster.ts";

const rnd = (min: number, max: number) => min + (randomInt(0, 10_000) / 10_000) * (max - min);
const colour = (lo: number, hi: number) => [randomInt(lo, hi), randomInt(lo, hi), randomInt(lo, hi)];

export function randomCaptchaText(length = 4): string {
  return Array.from({ length }, () => CAPTCHA_ALPHABET[randomInt(0, CAPTCHA_ALPHABET.length)]).join("");
}

export const CAPTCHA_SIZE = { width: 120, height: 40 } as const;

/**
 * The captcha picture: each character scaled, sheared and shifted by a random amount, in its own
 * dark colour, over a light background crossed by noise lines and speckles.
 */
export function renderCaptcha(text: string): Buffer {
  const { width, height } = CAPTCHA_SIZE;
  const img = new Raster(width, height);
  img.fill(colour(225, 250));
  for (let i = 0; i < 60; i++) img.disc(rnd(0, width), rnd(0, height), rnd(0.5, 1.5), colour(120, 220), 0.6);
  const cell = 4;
  const slot = width / (text.length + 0.5);
  [...text].forEach((ch, index) => {
    const glyph = GLYPHS[ch];
    if (!glyph) return;
    const ink = colour(10, 110);
    const shear = rnd(-0.35, 0.35);
    const x0 = slot * (index + 0.25) + rnd(-3, 3);
    const y0 = rnd(2, height - 7 * cell - 2);
    glyph.forEach((row, gy) => {
      [...row].forEach((mark, gx) => {
        if (mark !== "#") return;
        for (let dy = 0; dy < cell; dy++) {
          for (let dx = 0; dx < cell; dx++) {
            const y = y0 + gy * cell + dy;
            img.blend(x0 + gx * cell + dx + shear * (y - height / 2), y, ink, 0.95);
          }
        }
      });
    });
  });
  for (let i = 0; i < 4; i++) {
    const ink = colour(40, 160);
    const y = rnd(5, height - 5);
    const amp = rnd(3, 9);
    const freq = rnd(0.04, 0.12);
    let prev = y;
    for (let x = 1; x < width; x++) {
      const next = y + amp * Math.sin(x * freq + i);
      img.line(x - 1, prev, x, next, ink, 0.7);
      prev = next;
    }
  }
  return img.toPng();
}

export const SLIDE_SIZE = { width: 300, height: 150, piece: 44, knob: 8 } as const;

/** Whether (x, y) of a piece-sized box lies inside the puzzle shape (a square with two knobs). */
function insidePiece(x: number, y: number): boolean {
  const { piece, knob } = SLIDE_SIZE;
  const body = x >= knob && x < piece && y >= knob && y < piece;
  const top = (x - (knob + (piece - knob) / 2)) ** 2 + (y - knob) ** 2 <= knob * knob;
  const left = (x - knob) ** 2 + (y - (knob + (piece - knob) / 2)) ** 2 <= knob * knob;
  return body || top || left;
}

export interface SlidePuzzle {
  background: Buffer;
  piece: Buffer;
  /** Where the gap is; only the server knows x. */
  x: number;
  y: number;
}

/**
 * A slide puzzle: a random landscape with a piece-shaped gap at a random place, and the piece
 * cut from it. The user drags the piece into the gap; the server checks where it was dropped.
 */
export function renderSlidePuzzle(): SlidePuzzle {
  const { width, height, piece } = SLIDE_SIZE;
  const bg = new Raster(width, height);
  const top = colour(60, 160);
  const bottom = colour(120, 230);
  for (let y = 0; y < height; y++) {
    const k = y / height;
    const row = top.map((c, i) => Math.round(c * (1 - k) + (bottom[i] as number) * k));
    for (let x = 0; x < width; x++) bg.set(x, y, [...row, 255]);
  }
  for (let i = 0; i < 18; i++) bg.disc(rnd(0, width), rnd(0, height), rnd(6, 30), colour(30, 250), rnd(0.25, 0.6));
  for (let i = 0; i < 10; i++) bg.line(rnd(0, width), rnd(0, height), rnd(0, width), rnd(0, height), colour(0, 255), 0.5);

  const x = randomInt(piece + 20, width - piece - 4);
  const y = randomInt(4, height - piece - 4);
  const cut = new Raster(piece, piece);
  for (let py = 0; py < piece; py++) {
    for (let px = 0; px < piece; px++) {
      if (!insidePiece(px, py)) continue;
      const edge = !insidePiece(px - 1, py) || !insidePiece(px + 1, py) || !insidePiece(px, py - 1) || !insidePiece(px, py + 1);
      const [r, g, b] = bg.get(x + px, y + py);
      cut.set(px, py, edge ? [255, 255, 255, 255] : [r, g, b, 255]);
      bg.blend(x + px, y + py, edge ? [255, 255, 255] : [0, 0, 0], edge ? 0.8 : 0.55);
    }
  }
  return { background: bg.toPng(), piece: cut.toPng(), x, y };
}
