/**
 * The one database interface of the server. Two drivers implement it with the same PostgreSQL
 * dialect: PGlite (embedded, in `DATA_DIR`) and node-postgres (a real server at DATABASE_URL).
 * Queries are plain parameterised SQL (`$1, $2…`); bulk paths use `copyRows`.
 */
import { type CopyType, copyBinaryPayload } from "./copy-binary.ts";

export type Row = Record<string, unknown>;

export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface Queryable {
  query<T = Row>(text: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
}

/**
 * Appends rows with COPY … FROM STDIN; returns the number of rows written. Text format, or the
 * binary format when the columns' types are given (copy-binary.ts).
 */
export type CopyRows = (
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  types?: readonly CopyType[],
) => Promise<number>;

/** A transaction's connection: queries and COPY inside the same transaction. */
export interface Tx extends Queryable {
  copyRows: CopyRows;
}

export interface Db extends Queryable {
  readonly driver: "pglite" | "postgres";
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  copyRows: CopyRows;
  /** Runs a script of several statements (migrations). */
  exec(script: string): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /**
   * In-process LISTEN (PGlite only; with PostgreSQL the cluster bus listens on a connection of
   * its own). Resolves to the function that stops listening.
   */
  listen?(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>;
}

/** Type parsers shared by both drivers so a row reads the same on each. */
export const TYPE_PARSERS: Record<number, (value: string) => unknown> = {
  20: Number, // int8: ids and counters stay below 2^53
  1700: Number, // numeric: energy and money figures
  1082: (value) => value, // date: keep 'YYYY-MM-DD', never shift it through a local time zone
};

/** Encodes one value for COPY's text format. */
export function copyText(value: unknown): string {
  if (value === null || value === undefined) return "\\N";
  if (value instanceof Date) return value.toISOString();
  // bytea in hex input form; the backslash itself is escaped for COPY's text format.
  if (value instanceof Uint8Array) return `\\\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex")}`;
  if (Array.isArray(value)) return escapeCopy(arrayLiteral(value));
  if (typeof value === "object") return escapeCopy(JSON.stringify(value));
  return escapeCopy(String(value));
}

/** A PostgreSQL array literal of strings or numbers, e.g. `{"a","b"}`. */
function arrayLiteral(values: readonly unknown[]): string {
  return `{${values.map((v) => (typeof v === "number" ? String(v) : `"${String(v).replace(/["\\]/g, (c) => `\\${c}`)}"`)).join(",")}}`;
}

function escapeCopy(text: string): string {
  return text.replace(/[\\\n\r\t]/g, (c) => (c === "\\" ? "\\\\" : c === "\n" ? "\\n" : c === "\r" ? "\\r" : "\\t"));
}

export function copyPayload(rows: readonly (readonly unknown[])[]): string {
  let out = "";
  for (const row of rows) out += `${row.map(copyText).join("\t")}\n`;
  return out;
}

/** The COPY statement and its payload for `copyRows` (binary when the types are given). */
export function copyCommand(
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  source: string,
  types?: readonly CopyType[],
): { sql: string; payload: string | Buffer<ArrayBuffer> } {
  const sql = `COPY ${quoteIdent(table)} (${columns.map(quoteIdent).join(", ")}) FROM ${source}`;
  if (!types) return { sql, payload: copyPayload(rows) };
  if (types.length !== columns.length) throw new Error(`COPY ${table}: ${columns.length} columns, ${types.length} types`);
  return { sql: `${sql} WITH (FORMAT binary)`, payload: copyBinaryPayload(types, rows) };
}

export function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?$/.test(name)) throw new Error(`Unsafe SQL identifier: ${name}`);
  return name;
}
