import { z } from "zod";
import { text } from "./text.ts";

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** The `fields` label of one language of a localised field: `nameZhCN`, `titleEnUS`, `contentJa`. */
export const localisedLabel = (field: string, locale: string) => `fields:${field}${locale.split("-").map(cap).join("")}`;

/**
 * Text in the five languages (`{ "zh-CN", "en-US", it, es, ja }`): Chinese and English required
 * (spec §5 "in both languages"), the others may be left empty.
 */
export function localisedInput(field: string, max: number) {
  const required = (l: string) =>
    text()
      .trim()
      .min(1)
      .max(max)
      .meta({ label: localisedLabel(field, l) });
  const optional = (l: string) => z.preprocess((v) => v ?? "", text().trim().max(max)).meta({ label: localisedLabel(field, l) });
  return z.object({
    "zh-CN": required("zh-CN"),
    "en-US": required("en-US"),
    it: optional("it"),
    es: optional("es"),
    ja: optional("ja"),
  });
}

/** Stored localised text as answered (every language present, empty where none was written). */
export const localisedText = z.object({
  "zh-CN": z.string(),
  "en-US": z.string(),
  it: z.string(),
  es: z.string(),
  ja: z.string(),
});
export type LocalisedRecord = z.infer<typeof localisedText>;
