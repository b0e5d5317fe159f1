import { REGISTER_CHUNKS, REGISTER_WORD_ALIASES } from "./chunks.generated.ts";
import { AUDIENCES, type Audience, type Register, type RegisterFamily, type RegisterRow } from "./types.ts";

type Chunk = (typeof REGISTER_CHUNKS)[number];
/** Every register id and single-phase key of the catalogue. */
export type RegisterId = Chunk["rows"][number][0];

function expand(chunk: { family: string; page: number | null; pageName: string; rows: readonly RegisterRow[] }): Register[] {
  const family = chunk.family as RegisterFamily;
  return chunk.rows.map((row) => {
    const [id, start, end, group, type, scale, unit, min, max, enumName, audience] = row;
    const rights = audience.split("|");
    const view = {} as Record<Audience, boolean>;
    const set = {} as Record<Audience, boolean>;
    AUDIENCES.forEach((a, i) => {
      view[a] = rights[i]?.[0] === "r";
      set[a] = rights[i]?.[1] === "w";
    });
    const settable = family.endsWith("0X03") || set.backOffice;
    return {
      id,
      family,
      access: settable ? "readWrite" : "read",
      address: start === null || end === null ? null : { start, end, words: end - start + 1 },
      product: family.startsWith("TP") ? "three" : "single",
      page: chunk.page,
      pageName: chunk.pageName,
      alsoOnPages: row[11] ?? [],
      group,
      type,
      scale,
      unit,
      min,
      max,
      enum: enumName,
      view,
      set,
      labelKey: `registers:${id}`,
    };
  });
}

/** The register catalogue, in family and page order. */
export const REGISTERS: readonly Register[] = REGISTER_CHUNKS.flatMap((chunk) => expand(chunk));

const byId = new Map(REGISTERS.map((r) => [r.id, r]));
const aliases: Record<string, string> = REGISTER_WORD_ALIASES;

/**
 * Looks a register up by id. The reference's visibility lists name each word of some 32-bit values
 * on their own (e.g. TP_0X04_5632 and _5633); those resolve to the one multi-register value.
 */
export function getRegister(id: string): Register | undefined {
  return byId.get(id) ?? byId.get(aliases[id] ?? "");
}

export function isRegisterId(id: string): id is RegisterId {
  return byId.has(id);
}

/**
 * The register of a family that covers an address (a 32-bit value answers for both its words).
 * Single-phase keys have no address.
 */
export function findRegisterAt(family: RegisterFamily, address: number): Register | undefined {
  if (!byAddress) {
    byAddress = new Map();
    for (const r of REGISTERS) {
      if (!r.address) continue;
      for (let a = r.address.start; a <= r.address.end; a++) {
        const key = `${r.family}:${a}`;
        // Keep the first (the reference's own order) where two entries claim one address.
        if (!byAddress.has(key)) byAddress.set(key, r);
      }
    }
  }
  return byAddress.get(`${family}:${address}`);
}
let byAddress: Map<string, Register> | undefined;

/** Registers of one live page (three-phase 41–49, single-phase 7, 8, 9, 11, 13, 15). */
export function registersOfPage(page: number): Register[] {
  return REGISTERS.filter((r) => r.page === page || r.alsoOnPages.includes(page));
}

/** Raw register value → engineering value, e.g. 2305 × 0.1 → 230.5 V. */
export function toEngineering(register: Register, raw: number): number {
  return Number((raw * register.scale).toFixed(6));
}

/** Engineering value → raw register value (rounded to the register's resolution). */
export function toRaw(register: Register, value: number): number {
  return Math.round(value / register.scale);
}

/** Combines the words of a 32-bit value read high word first. */
export function combineWords(register: Register, high: number, low: number): number {
  const unsigned = (high & 0xffff) * 65536 + (low & 0xffff);
  return register.type === "s32" && unsigned >= 0x80000000 ? unsigned - 0x100000000 : unsigned;
}

export { REGISTER_WORD_ALIASES };

/** What each data type can hold as a raw register value (null: not a number). */
export const RAW_LIMITS: Readonly<Record<Register["type"], readonly [number, number] | null>> = {
  u16: [0, 65535],
  s16: [-32768, 32767],
  u32: [0, 4294967295],
  s32: [-2147483648, 2147483647],
  enum: [0, 65535],
  flag: [0, 1],
  bitfield: [0, 4294967295],
  version: [0, 65535],
  string: null,
  timeHour: [0, 23],
  timeMinute: [0, 59],
  timeSecond: [0, 59],
  datePart: [0, 9999],
  dateTime: null,
};

/**
 * Whether an engineering value is acceptable for a register: inside its range and, for
 * enumerations, one of the codes. Ingest counts the values that are not; the web validates inputs.
 */
export function isValidValue(register: Register, value: number, enumCodes?: readonly number[]): boolean {
  if (!Number.isFinite(value)) return false;
  if (register.type === "string" || register.type === "dateTime") return true;
  if (value < register.min || value > register.max) return false;
  return !enumCodes || enumCodes.includes(value);
}

/** Live pages of the catalogue: number, name and product (three-phase 41–49, single-phase 7–15). */
export const CATALOGUE_PAGES: readonly { page: number; name: string; product: "single" | "three" }[] = [
  ...new Map(
    REGISTERS.filter((r) => r.page !== null).map((r) => [
      r.page,
      { page: r.page as number, name: r.pageName, product: r.product },
    ]),
  ).values(),
].sort((a, b) => a.page - b.page);
