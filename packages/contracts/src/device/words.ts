import type { Register } from "@ess/domain";

/**
 * Register words a value takes on the wire: its address span for registers; for single-phase
 * keys (no address) two words when the value needs 32 bits, three for a date-time, else one.
 */
export function wordsOf(register: Pick<Register, "type" | "address" | "min" | "max" | "scale">): number {
  if (register.address) return register.address.words;
  if (register.type === "dateTime") return 3;
  const rawMax = Math.round(register.max / register.scale);
  const rawMin = Math.round(register.min / register.scale);
  if (register.type === "u32" || register.type === "s32" || rawMax > 0xffff || rawMin < -0x8000) return 2;
  return 1;
}
