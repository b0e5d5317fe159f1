/**
 * COPY's binary format for the bulk paths that carry bytes and numbers (telemetry history): no
 * hex for bytea, no decimal text for reals, nothing for PostgreSQL to parse but lengths. Both
 * drivers send it (`COPY … FROM STDIN WITH (FORMAT binary)` / PGlite's '/dev/blob').
 */
export type CopyType = "int2" | "int4" | "int8" | "float4" | "float8" | "timestamptz" | "bytea" | "text" | "text[]";

const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");
/** Microseconds between the Unix epoch and PostgreSQL's (2000-01-01 UTC). */
const PG_EPOCH_MS = 946_684_800_000;
const TEXT_OID = 25;

/** Bytes a value takes after its 4-byte length word (null: none). */
function sizeOf(type: CopyType, value: unknown): number {
  switch (type) {
    case "int2":
      return 2;
    case "int4":
    case "float4":
      return 4;
    case "int8":
    case "float8":
    case "timestamptz":
      return 8;
    case "bytea":
      return (value as Uint8Array).byteLength;
    case "text":
      return Buffer.byteLength(String(value));
    case "text[]": {
      let n = 20;
      for (const item of value as readonly unknown[]) n += 4 + Buffer.byteLength(String(item));
      return n;
    }
  }
}

/**
 * Encodes rows (values in the order of `types`; null or undefined is SQL NULL) as one binary COPY
 * payload. Timestamps are epoch milliseconds or Dates; integers must be safe integers.
 */
export function copyBinaryPayload(types: readonly CopyType[], rows: readonly (readonly unknown[])[]): Buffer<ArrayBuffer> {
  let total = SIGNATURE.length + 8 + 2;
  for (const row of rows) {
    total += 2 + 4 * types.length;
    for (let c = 0; c < types.length; c++) {
      const v = row[c];
      if (v !== null && v !== undefined) total += sizeOf(types[c] as CopyType, v);
    }
  }
  const out = Buffer.allocUnsafe(total);
  let at = SIGNATURE.copy(out, 0);
  at = out.writeInt32BE(0, at); // flags
  at = out.writeInt32BE(0, at); // header extension length
  for (const row of rows) {
    at = out.writeInt16BE(types.length, at);
    for (let c = 0; c < types.length; c++) {
      const v = row[c];
      if (v === null || v === undefined) {
        at = out.writeInt32BE(-1, at);
        continue;
      }
      at = writeValue(out, at, types[c] as CopyType, v);
    }
  }
  out.writeInt16BE(-1, at); // trailer
  return out;
}

/** A safe integer as a big-endian int64, without a BigInt per value. */
function writeInt64(out: Buffer, at: number, n: number): number {
  const high = Math.floor(n / 0x100000000);
  at = out.writeInt32BE(high, at);
  return out.writeUInt32BE(n - high * 0x100000000, at);
}

function writeValue(out: Buffer, at: number, type: CopyType, v: unknown): number {
  switch (type) {
    case "int2":
      at = out.writeInt32BE(2, at);
      return out.writeInt16BE(Number(v), at);
    case "int4":
      at = out.writeInt32BE(4, at);
      return out.writeInt32BE(Number(v), at);
    case "int8":
      at = out.writeInt32BE(8, at);
      return writeInt64(out, at, Number(v));
    case "float4":
      at = out.writeInt32BE(4, at);
      return out.writeFloatBE(Number(v), at);
    case "float8":
      at = out.writeInt32BE(8, at);
      return out.writeDoubleBE(Number(v), at);
    case "timestamptz": {
      const ms = v instanceof Date ? v.getTime() : Number(v);
      at = out.writeInt32BE(8, at);
      return writeInt64(out, at, Math.round((ms - PG_EPOCH_MS) * 1000));
    }
    case "bytea": {
      const bytes = v as Uint8Array;
      at = out.writeInt32BE(bytes.byteLength, at);
      out.set(bytes, at);
      return at + bytes.byteLength;
    }
    case "text": {
      const s = String(v);
      const len = out.write(s, at + 4, "utf8");
      out.writeInt32BE(len, at);
      return at + 4 + len;
    }
    case "text[]": {
      const items = v as readonly unknown[];
      const start = at;
      at += 4; // length, written once known
      at = out.writeInt32BE(1, at); // dimensions
      at = out.writeInt32BE(0, at); // no nulls
      at = out.writeInt32BE(TEXT_OID, at);
      at = out.writeInt32BE(items.length, at);
      at = out.writeInt32BE(1, at); // lower bound
      for (const item of items) {
        const len = out.write(String(item), at + 4, "utf8");
        out.writeInt32BE(len, at);
        at += 4 + len;
      }
      out.writeInt32BE(at - start - 4, start);
      return at;
    }
  }
}
