import { z } from "zod";

/**
 * The text the console accepts, decided once for every string a route takes (query filters, body
 * fields, names, file names, texts stored as JSON): Unicode that PostgreSQL can store and a screen
 * can show. Refused: NUL and the other C0 control characters except tab, line feed and carriage
 * return (multi-line remarks and stack traces keep their lines), DEL, and lone UTF-16 surrogates
 * (a surrogate pair, i.e. an emoji, is one code point and passes). With the `u` flag a lone
 * surrogate is matched as the code point it is, so the class below sees it.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
export const PLAIN_TEXT = /^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uD800-\uDFFF]*$/u;
export const PLAIN_TEXT_MESSAGE = "validation:plainText";

/** Adds the console's text rule to a string schema (also e-mail and URL formats). */
export function plain<S extends z.ZodString | z.ZodEmail | z.ZodURL>(schema: S): S {
  return schema.regex(PLAIN_TEXT, { message: PLAIN_TEXT_MESSAGE }) as S;
}

/** A string a route accepts: every input string of the API is built from this. */
export const text = () => plain(z.string());

/** True when a string schema carries the text rule (the contracts' test walks every route with it). */
export function hasPlainTextRule(schema: z.ZodType): boolean {
  const checks = (schema._zod.def as { checks?: { _zod: { def: { pattern?: RegExp } } }[] }).checks ?? [];
  return checks.some((c) => c._zod.def.pattern === PLAIN_TEXT);
}

/**
 * Numbers bounded by the column (and register) that holds them, so that a value PostgreSQL cannot
 * store is a field refusal rather than a database error. Ids and int8 columns are bounded by the
 * integers JavaScript holds exactly (zod's int does that already).
 */
export const INT2 = { min: -32_768, max: 32_767 } as const;
export const INT4 = { min: -2_147_483_648, max: 2_147_483_647 } as const;
export const INT8 = { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER } as const;
/** PostgreSQL's `real` holds up to about 3.4e38; values of the console are far below. */
export const REAL = { min: -3.4e38, max: 3.4e38 } as const;

export const int2 = () => z.number().int().min(INT2.min).max(INT2.max);
export const int4 = () => z.number().int().min(INT4.min).max(INT4.max);
export const int8 = () => z.number().int().min(INT8.min).max(INT8.max);
/** An id of a record (every table's id is a bigint identity). */
export const id = () => z.number().int().min(1).max(INT8.max);
/** A number stored as `numeric(precision, scale)`: at most precision − scale digits before the point. */
export const numeric = (precision: number, scale: number) => {
  const limit = 10 ** (precision - scale);
  return z.number().gt(-limit).lt(limit);
};

/** True when a number schema carries a finite lower and upper bound. */
export function isBoundedNumber(schema: z.ZodType): boolean {
  const n = schema as unknown as { minValue?: number | null; maxValue?: number | null };
  return Number.isFinite(n.minValue) && Number.isFinite(n.maxValue);
}

/**
 * Instants a route accepts: ISO 8601 text or epoch milliseconds (also as digits in a query), from
 * 1970 to the end of year 9999 — inside what PostgreSQL's timestamptz holds and what the console
 * means. Absent, null and empty read as absent, so a required instant says "required" (never
 * 1970-01-01, which `new Date(null)` would give).
 */
export const INSTANT_RANGE = { min: new Date(Date.UTC(1970, 0, 1)), max: new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999)) };
export const instantInput = () =>
  z.preprocess(
    (v) => (v === null || v === "" ? undefined : typeof v === "string" && /^\d{10,13}$/.test(v) ? Number(v) : v),
    z
      .union([z.number().min(INSTANT_RANGE.min.getTime()).max(INSTANT_RANGE.max.getTime()), text().max(64)])
      .pipe(z.coerce.date<string | number>().min(INSTANT_RANGE.min).max(INSTANT_RANGE.max)),
  );
