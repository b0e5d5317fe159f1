/**
 * What the operation log stores is what it was given, made storable: PostgreSQL refuses NUL in text
 * and in jsonb, and lone UTF-16 surrogates in jsonb (and would turn them into U+FFFD in text). Both
 * are kept visibly as the escapes `\u0000` and `\udXXX` (six characters), never dropped and never
 * a reason for the insert to fail. (A caller who typed such an escape literally reads the same.)
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what is escaped here.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const escapeOne = (c: string) => `\\u${(c.codePointAt(0) as number).toString(16).padStart(4, "0")}`;

export function storableText(text: string): string {
  return text.replace(UNSTORABLE, escapeOne);
}

/** `storableText` over every string of a JSON-like value, keys included. */
export function storableValue(value: unknown): unknown {
  if (typeof value === "string") return storableText(value);
  if (Array.isArray(value)) return value.map(storableValue);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [storableText(k), storableValue(v)]),
  );
}

/** At most `max` UTF-16 units of `text`, never ending between the two halves of a surrogate pair. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  const high = text.charCodeAt(max - 1);
  return text.slice(0, high >= 0xd800 && high <= 0xdbff ? max - 1 : max);
}

/** Like `storableText` after `truncateText`, for a column of bounded length; null stays null. */
export function storableField(text: string | null | undefined, max: number): string | null {
  return text === null || text === undefined ? null : truncateText(storableText(text), max);
}
