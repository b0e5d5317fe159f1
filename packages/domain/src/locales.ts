/** The five console languages; zh-CN is the source language of every label. */
export const LOCALES = ["zh-CN", "en-US", "it", "es", "ja"] as const;
export type Locale = (typeof LOCALES)[number];
export const SOURCE_LOCALE: Locale = "zh-CN";

const byPrefix: Record<string, Locale> = { zh: "zh-CN", en: "en-US", it: "it", es: "es", ja: "ja" };

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/**
 * Picks the best supported locale for a list of language tags (an Accept-Language header or
 * navigator.languages), honouring q-values; falls back to the source locale.
 */
export function negotiateLocale(preferences: string | readonly string[] | undefined | null): Locale {
  if (!preferences) return SOURCE_LOCALE;
  const tags =
    typeof preferences === "string"
      ? preferences
          .split(",")
          .map((part, index) => {
            const [tag = "", ...params] = part.trim().split(";");
            const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
            return { tag: tag.trim(), q: q ? Number(q.slice(2)) : 1, index };
          })
          .filter((t) => t.tag && !Number.isNaN(t.q) && t.q > 0)
          .sort((a, b) => b.q - a.q || a.index - b.index)
          .map((t) => t.tag)
      : preferences;
  for (const tag of tags) {
    const exact = LOCALES.find((l) => l.toLowerCase() === tag.toLowerCase());
    if (exact) return exact;
    const prefix = byPrefix[tag.toLowerCase().split("-")[0] ?? ""];
    if (prefix) return prefix;
  }
  return SOURCE_LOCALE;
}
