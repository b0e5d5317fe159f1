import { REGISTERS, type Register, type RegisterFamily, registersOfPage } from "@ess/domain";
import { SP_KEY_MAP_V1 } from "./sp-key-map.generated.ts";

/** Where a value sits on the wire: a family's address space, first address and word count. */
export interface WireSpan {
  family: RegisterFamily;
  start: number;
  words: number;
}

const spKeySpans = new Map<string, { start: number; words: number }>();
{
  let at = 0;
  for (const [key, words] of SP_KEY_MAP_V1) {
    spKeySpans.set(key, { start: at, words });
    at += words;
  }
}

/** The wire span of a catalogue entry: its register address, or its place in the key map. */
export function wireSpan(register: Register): WireSpan | null {
  if (register.address) return { family: register.family, start: register.address.start, words: register.address.words };
  const span = spKeySpans.get(register.id);
  return span ? { family: register.family, ...span } : null;
}

/**
 * Blocks that carry the given entries: consecutive spans of one family joined when the gap
 * between them is at most `maxGap` words (the gap travels as zero padding; a block header costs three).
 */
export function layoutOf(registers: readonly Register[], maxGap = 3): WireSpan[] {
  const spans = registers
    .map(wireSpan)
    .filter((s): s is WireSpan => s !== null)
    .sort((a, b) => (a.family === b.family ? a.start - b.start : a.family < b.family ? -1 : 1));
  const out: WireSpan[] = [];
  for (const s of spans) {
    const last = out.at(-1);
    const end = s.start + s.words;
    if (last && last.family === s.family && s.start <= last.start + last.words + maxGap) {
      last.words = Math.max(last.words, end - last.start);
    } else {
      out.push({ ...s });
    }
  }
  return out;
}

export type Product = "single" | "three";

/** What a periodic telemetry frame carries: every input register (three-phase) or page 7 (single-phase). */
export const TELEMETRY_REGISTERS: Readonly<Record<Product, readonly Register[]>> = {
  three: REGISTERS.filter((r) => r.family === "TP_0X04"),
  single: registersOfPage(7),
};

const layouts = new Map<string, WireSpan[]>();
function cachedLayout(key: string, registers: () => readonly Register[]): readonly WireSpan[] {
  const known = layouts.get(key);
  if (known) return known;
  const layout = layoutOf(registers());
  layouts.set(key, layout);
  return layout;
}

export function telemetryLayout(product: Product): readonly WireSpan[] {
  return cachedLayout(`t:${product}`, () => TELEMETRY_REGISTERS[product]);
}

/** The blocks that answer a read of a live page (three-phase 41–49, single-phase 7–15). */
export function pageLayout(page: number): readonly WireSpan[] {
  return cachedLayout(`p:${page}`, () => registersOfPage(page));
}

/** Index of every family's entries by wire address (first word), for decoding blocks. */
export function entriesOfFamily(family: RegisterFamily): readonly { register: Register; span: WireSpan }[] {
  let list = byFamily.get(family);
  if (!list) {
    list = REGISTERS.filter((r) => r.family === family)
      .map((register) => ({ register, span: wireSpan(register) }))
      .filter((e): e is { register: Register; span: WireSpan } => e.span !== null)
      .sort((a, b) => a.span.start - b.span.start);
    byFamily.set(family, list);
  }
  return list;
}
const byFamily = new Map<RegisterFamily, { register: Register; span: WireSpan }[]>();
