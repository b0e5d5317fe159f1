import { ENUMS, isEnumName, KEY_QUANTITIES, type Register, type RegisterFamily, unitFactor } from "@ess/domain";
import { type DecodedFrame, FAMILY_CODES, type FrameBlock } from "./frame.ts";
import { entriesOfFamily, type Product, wireSpan } from "./wire-map.ts";

/** How the words of a value are read. */
const Kind = { U16: 0, S16: 1, U32: 2, S32: 3, Text: 4, DateTime: 5 } as const;
type Kind = (typeof Kind)[keyof typeof Kind];

interface PlanEntry {
  register: Register;
  /** Word offset inside the block. */
  at: number;
  words: number;
  kind: Kind;
  rawMin: number;
  rawMax: number;
  codes: ReadonlySet<number> | null;
}

interface BlockPlan {
  entries: PlanEntry[];
  /** Word offsets that belong to no catalogue entry: padding, which must be zero. */
  padding: Int32Array;
}

function kindOf(r: Register, words: number): Kind {
  if (r.type === "string") return Kind.Text;
  if (r.type === "dateTime") return Kind.DateTime;
  if (words === 2) return r.type === "s32" ? Kind.S32 : Kind.U32;
  return r.type === "s16" ? Kind.S16 : Kind.U16;
}

const plans = new Map<number, BlockPlan>();

/** The entries a block carries, compiled once per block shape (family, first address, length). */
function planOf(family: RegisterFamily, start: number, count: number): BlockPlan {
  // A number, not a string, as the key: this runs for every block of every frame.
  const key = (FAMILY_CODES[family] * 0x10000 + start) * 0x10000 + count;
  const cached = plans.get(key);
  if (cached) return cached;
  const entries: PlanEntry[] = [];
  const covered = new Uint8Array(count);
  for (const { register, span } of entriesOfFamily(family)) {
    if (span.start < start || span.start + span.words > start + count) continue;
    const at = span.start - start;
    covered.fill(1, at, at + span.words);
    const codes = register.enum && isEnumName(register.enum) ? new Set(ENUMS[register.enum].values) : null;
    entries.push({
      register,
      at,
      words: span.words,
      kind: kindOf(register, span.words),
      rawMin: Math.round(register.min / register.scale),
      rawMax: Math.round(register.max / register.scale),
      codes,
    });
  }
  const padding = Int32Array.from([...covered.keys()].filter((i) => covered[i] === 0));
  const plan = { entries, padding };
  // Devices send a handful of block shapes; the bound only guards against a device inventing many.
  if (plans.size < 4096) plans.set(key, plan);
  return plan;
}

function readRaw(frame: DecodedFrame, block: FrameBlock, e: PlanEntry): number | string {
  return readAt(frame.view, block.offset + e.at * 2, e);
}

function readAt(v: DataView, o: number, e: PlanEntry): number | string {
  switch (e.kind) {
    case Kind.U16:
      return v.getUint16(o);
    case Kind.S16:
      return v.getInt16(o);
    case Kind.U32:
      return v.getUint32(o);
    case Kind.S32:
      return v.getInt32(o);
    case Kind.DateTime: {
      const year = v.getUint16(o);
      const md = v.getUint16(o + 2);
      const hm = v.getUint16(o + 4);
      const p = (n: number) => String(n).padStart(2, "0");
      return `${year}-${p(md >> 8)}-${p(md & 0xff)} ${p(hm >> 8)}:${p(hm & 0xff)}`;
    }
    default: {
      let text = "";
      for (let i = 0; i < e.words; i++) {
        const w = v.getUint16(o + i * 2);
        for (const c of [w >> 8, w & 0xff]) if (c !== 0) text += String.fromCharCode(c);
      }
      return text;
    }
  }
}

/** Validity of the value at byte `o`, read straight from the words (the ingest's hot path). */
function isValidAt(v: DataView, o: number, e: PlanEntry): boolean {
  let x: number;
  switch (e.kind) {
    case Kind.U16:
      x = v.getUint16(o);
      break;
    case Kind.S16:
      x = v.getInt16(o);
      break;
    case Kind.U32:
      x = v.getUint32(o);
      break;
    case Kind.S32:
      x = v.getInt32(o);
      break;
    case Kind.DateTime: {
      const year = v.getUint16(o);
      const month = v.getUint8(o + 2);
      const day = v.getUint8(o + 3);
      const hour = v.getUint8(o + 4);
      const minute = v.getUint8(o + 5);
      return year >= 2000 && year <= 2099 && month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59;
    }
    default: {
      for (let i = 0; i < e.words * 2; i++) {
        const c = v.getUint8(o + i);
        if (c !== 0 && (c < 0x20 || c > 0x7e)) return false;
      }
      return true;
    }
  }
  return x >= e.rawMin && x <= e.rawMax && (e.codes === null || e.codes.has(x));
}

function isValidRaw(e: PlanEntry, raw: number | string): boolean {
  if (typeof raw === "string") {
    if (e.kind === Kind.DateTime) return /^20\d\d-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]) ([01]\d|2[0-3]):[0-5]\d$/.test(raw);
    return /^[\x20-\x7e]*$/.test(raw);
  }
  if (raw < e.rawMin || raw > e.rawMax) return false;
  return e.codes === null || e.codes.has(raw);
}

export interface FrameCheck {
  /** Values the catalogue knows that the frame carried. */
  values: number;
  /** Registers whose value is out of range or not a code of their enumeration. */
  invalid: string[];
  /** Non-zero words at addresses the catalogue does not define (padding must be zero). */
  unknown: number;
}

/** Validates every value of a frame against the catalogue without decoding it to objects. */
export function checkFrame(frame: DecodedFrame): FrameCheck {
  const out: FrameCheck = { values: 0, invalid: [], unknown: 0 };
  for (const block of frame.blocks) {
    const plan = planOf(block.family, block.start, block.count);
    const view = frame.view;
    for (let i = 0; i < plan.padding.length; i++) {
      if (view.getUint16(block.offset + (plan.padding[i] as number) * 2) !== 0) out.unknown++;
    }
    const entries = plan.entries;
    out.values += entries.length;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i] as PlanEntry;
      if (!isValidAt(view, block.offset + e.at * 2, e)) out.invalid.push(e.register.id);
    }
  }
  return out;
}

export type RegisterValue = number | string;

/**
 * Engineering values (raw × scale) of every catalogue entry the frame carries. Values that fail
 * validation come back as null and are listed in `invalid`: they are never shown as readings.
 */
export function decodeValues(frame: DecodedFrame): { values: Record<string, RegisterValue | null>; invalid: string[] } {
  const values: Record<string, RegisterValue | null> = {};
  const invalid: string[] = [];
  for (const block of frame.blocks) {
    for (const e of planOf(block.family, block.start, block.count).entries) {
      const raw = readRaw(frame, block, e);
      if (!isValidRaw(e, raw)) {
        values[e.register.id] = null;
        invalid.push(e.register.id);
      } else {
        values[e.register.id] = typeof raw === "number" ? Number((raw * e.register.scale).toFixed(6)) : raw;
      }
    }
  }
  return { values, invalid };
}

interface QuantityPart {
  family: RegisterFamily;
  address: number;
  entry: PlanEntry;
  factor: number;
}

const quantityParts = new Map<Product, QuantityPart[][]>();

function partsOf(product: Product): QuantityPart[][] {
  let parts = quantityParts.get(product);
  if (parts) return parts;
  parts = KEY_QUANTITIES.map((kq) =>
    (kq[product] as readonly string[]).map((id) => {
      const { register, span } = entriesOfFamilyById(id);
      const entry = planOf(span.family, span.start, span.words).entries.find((e) => e.register === register) as PlanEntry;
      return { family: span.family, address: span.start, entry, factor: register.scale * unitFactor(register.unit, kq.unit) };
    }),
  );
  quantityParts.set(product, parts);
  return parts;
}

function entriesOfFamilyById(id: string) {
  for (const family of ["TP_0X04", "SP_KEY", "HM_0X04", "HM6_0X04", "PROTOCOL_ADDR"] as const) {
    const found = entriesOfFamily(family).find((e) => e.register.id === id);
    if (found) return found;
  }
  throw new Error(`key quantity register ${id} has no wire span`);
}

/**
 * The key quantities (KEY_QUANTITIES order) of a frame, in their units; null where the frame
 * lacks a register or a register's value is invalid.
 */
export function keyQuantities(frame: DecodedFrame, product: Product): (number | null)[] {
  return partsOf(product).map((parts) => {
    if (parts.length === 0) return null;
    let sum = 0;
    for (const p of parts) {
      let block: FrameBlock | undefined;
      for (const b of frame.blocks) {
        if (b.family === p.family && p.address >= b.start && p.address + p.entry.words <= b.start + b.count) {
          block = b;
          break;
        }
      }
      if (!block) return null;
      const o = block.offset + (p.address - block.start) * 2;
      if (!isValidAt(frame.view, o, p.entry)) return null;
      sum += (readAt(frame.view, o, p.entry) as number) * p.factor;
    }
    return round4(sum);
  });
}

/**
 * Four decimals, rounding halves away from zero as toFixed(4) does, without the string toFixed
 * makes: this runs for every key quantity of every frame.
 */
function round4(x: number): number {
  return x < 0 ? -Math.round(-x * 10_000) / 10_000 : Math.round(x * 10_000) / 10_000;
}

/** The product a frame belongs to: three-phase frames carry TP_ registers. */
export function productOfFrame(frame: DecodedFrame): Product {
  return frame.blocks.some((b) => b.family.startsWith("TP_")) ? "three" : "single";
}

export { wireSpan };

const wordSpans = new Map<string, { family: RegisterFamily; address: number; entry: PlanEntry } | null>();

/**
 * Raw 16-bit values of the given single-word registers (alarm and status words) that a frame
 * carries, read straight from its blocks; registers the frame lacks are left out. Alarm words are
 * bit sets, so they are read as sent, whatever the catalogue's range says.
 */
export function rawWords(frame: DecodedFrame, ids: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const id of ids) {
    let span = wordSpans.get(id);
    if (span === undefined) {
      try {
        const { register, span: s } = entriesOfFamilyById(id);
        const entry = planOf(s.family, s.start, s.words).entries.find((e) => e.register === register);
        span = entry ? { family: s.family, address: s.start, entry } : null;
      } catch {
        span = null;
      }
      wordSpans.set(id, span);
    }
    if (!span) continue;
    for (const b of frame.blocks) {
      if (b.family === span.family && span.address >= b.start && span.address < b.start + b.count) {
        out.set(id, frame.view.getUint16(b.offset + (span.address - b.start) * 2));
        break;
      }
    }
  }
  return out;
}

const valueSpans = new Map<string, { family: RegisterFamily; address: number; entry: PlanEntry } | null>();

/**
 * Engineering values of a few named registers (any width: strings, 32-bit values) that a frame
 * carries, read straight from its blocks without decoding the rest; a value that fails validation
 * is null, a register the frame lacks is left out. For the handful of identity values ingest
 * reads from every reading.
 */
export function registerValues(frame: DecodedFrame, ids: readonly string[]): Map<string, RegisterValue | null> {
  const out = new Map<string, RegisterValue | null>();
  for (const id of ids) {
    let span = valueSpans.get(id);
    if (span === undefined) {
      try {
        const { register, span: s } = entriesOfFamilyById(id);
        const entry = planOf(s.family, s.start, s.words).entries.find((e) => e.register === register);
        span = entry ? { family: s.family, address: s.start, entry } : null;
      } catch {
        span = null;
      }
      valueSpans.set(id, span);
    }
    if (!span) continue;
    for (const b of frame.blocks) {
      if (b.family === span.family && span.address >= b.start && span.address + span.entry.words <= b.start + b.count) {
        const o = b.offset + (span.address - b.start) * 2;
        if (!isValidAt(frame.view, o, span.entry)) out.set(id, null);
        else {
          const raw = readAt(frame.view, o, span.entry);
          out.set(id, typeof raw === "number" ? Number((raw * span.entry.register.scale).toFixed(6)) : raw);
        }
        break;
      }
    }
  }
  return out;
}

/**
 * A 32-bit fingerprint (FNV-1a) of the words of a few named registers as a frame carries them (a
 * register the frame lacks counts as such): equal fingerprints, the same words. Lets ingest skip
 * decoding values that did not change since the device's last reading, in a fraction of the time
 * decoding them takes.
 */
export function registerWordsHash(frame: DecodedFrame, ids: readonly string[]): number {
  let hash = 0x811c9dc5;
  for (const id of ids) {
    let span = valueSpans.get(id);
    if (span === undefined) {
      registerValues(frame, [id]);
      span = valueSpans.get(id) ?? null;
    }
    let found = false;
    if (span) {
      for (const b of frame.blocks) {
        if (b.family === span.family && span.address >= b.start && span.address + span.entry.words <= b.start + b.count) {
          const o = b.offset + (span.address - b.start) * 2;
          for (let i = 0; i < span.entry.words; i++) hash = Math.imul(hash ^ frame.view.getUint16(o + i * 2), 0x01000193);
          found = true;
          break;
        }
      }
    }
    hash = Math.imul(hash ^ (found ? 0x10000 : 0x20000), 0x01000193);
  }
  return hash >>> 0;
}
