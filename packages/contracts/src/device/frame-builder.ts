import { ENUMS, getRegister, isEnumName, type Register } from "@ess/domain";
import type { RegisterBlock } from "./frame.ts";
import type { WireSpan } from "./wire-map.ts";
import { wireSpan } from "./wire-map.ts";

/**
 * Writes one value into the words of its span: numbers as raw = value ÷ scale (two's complement
 * for negatives, high word first for 32 bits), text as ASCII two characters per word, a date-time
 * `YYYY-MM-DD hh:mm` as year, month × 256 + day, hour × 256 + minute.
 */
export function writeValue(words: Uint16Array, at: number, register: Register, span: number, value: number | string): void {
  if (register.type === "dateTime" && typeof value === "string") {
    const m = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d)$/.exec(value);
    if (!m) return;
    words[at] = Number(m[1]);
    words[at + 1] = Number(m[2]) * 256 + Number(m[3]);
    words[at + 2] = Number(m[4]) * 256 + Number(m[5]);
    return;
  }
  if (typeof value === "string") {
    for (let i = 0; i < span; i++) {
      words[at + i] = ((value.charCodeAt(i * 2) || 0) << 8) | (value.charCodeAt(i * 2 + 1) || 0);
    }
    return;
  }
  const raw = Math.round(value / register.scale);
  if (span >= 2) {
    const unsigned = raw < 0 ? raw + 0x100000000 : raw;
    words[at] = Math.floor(unsigned / 0x10000) & 0xffff;
    words[at + 1] = unsigned & 0xffff;
  } else {
    words[at] = raw & 0xffff;
  }
}

/** Fills the blocks of a layout from engineering values by register id; missing values are 0. */
export function blocksFromValues(
  layout: readonly WireSpan[],
  values: Readonly<Record<string, number | string>>,
): RegisterBlock[] {
  const blocks = layout.map((s) => ({ family: s.family, start: s.start, words: new Uint16Array(s.words) }));
  for (const [id, value] of Object.entries(values)) {
    const register = getRegister(id);
    if (!register) continue;
    const span = wireSpan(register);
    if (!span) continue;
    const block = blocks.find(
      (b) => b.family === span.family && span.start >= b.start && span.start + span.words <= b.start + b.words.length,
    );
    if (block) writeValue(block.words, span.start - block.start, register, span.words, value);
  }
  return blocks;
}

/**
 * A valid resting value for every entry: 0 where the range allows it, else the lowest value (or
 * first code of the enumeration). Simulators and tests start from it and set what they model.
 */
export function baselineValues(registers: readonly Register[]): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  for (const r of registers) {
    if (r.type === "string") out[r.id] = "";
    else if (r.type === "dateTime") out[r.id] = "2026-01-01 00:00";
    else if (r.enum && isEnumName(r.enum)) out[r.id] = ENUMS[r.enum].values.includes(0) ? 0 : (ENUMS[r.enum].values[0] ?? 0);
    else out[r.id] = r.min <= 0 && r.max >= 0 ? 0 : r.min;
  }
  return out;
}
