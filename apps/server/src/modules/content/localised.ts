import { type LocalisedRecord, localisedText } from "@ess/contracts";
import { LOCALES } from "@ess/domain";
import { type Sql, sql } from "../../db/sql.ts";

/** Stored texts with every language present (empty where none was written). */
export function localised(value: unknown): LocalisedRecord {
  const v = (value ?? {}) as Record<string, unknown>;
  return localisedText.parse(Object.fromEntries(LOCALES.map((l) => [l, typeof v[l] === "string" ? v[l] : ""])));
}

/**
 * A jsonb column of localised text holds `pattern` (ILIKE) in any language. Each language's text
 * is read by its key: expanding the object per row (jsonb_each_text) cost a search over 10,000
 * FAQ problems seconds instead of milliseconds.
 */
export const anyLanguageLike = (column: string, pattern: string): Sql =>
  sql`(${sql.join(
    LOCALES.map((locale) => sql`${sql.raw(column)} ->> ${locale} ILIKE ${pattern}`),
    " OR ",
  )})`;
