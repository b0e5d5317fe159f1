/**
 * Labels of the catalogue in five languages: the reference's en/zh/it, then our pattern tables
 * (catalogue-source/translations-*.tsv, en pattern → zh/it/es/ja; numbers, ordinals and phase
 * letters are placeholders {1}, {2}…) and translations-from-zh.tsv for values labelled only in Chinese.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const LANGS = ["zh-CN", "en-US", "it", "es", "ja"] as const;
export type Lang = (typeof LANGS)[number];

export function tsv(path: string): Record<string, string>[] {
  const [head = "", ...lines] = readFileSync(path, "utf8").replace(/\r/g, "").split("\n");
  const cols = head.split("\t");
  return lines
    .filter((l) => l.trim() && !l.startsWith("#"))
    .map((l) => {
      const cells = l.split("\t");
      return Object.fromEntries(cols.map((c, i) => [c, (cells[i] ?? "").trim()]));
    });
}

/** Reads the translation tables of `src` once; returns the label function and what it missed. */
export function createLabeller(src: string) {
  type Patterns = Map<string, Partial<Record<Lang, string>>>;
  const patterns: Patterns = new Map();
  /** Parts of a label that a translation carries over: numbers and phase letters (Phase A, B-phase). */
  const TOKENS = /\{\d+\}|\d+|(?<=\bphase )[abc]\b|\b[abc](?=-phase\b)/gi;
  const tokensOf = (text: string) => (text.match(TOKENS) ?? []).map((t) => t.toUpperCase());
  /** Ordinals lose their suffix (1st → 1) and "PhaseB" gets its space, before tokens are taken. */
  const prepare = (text: string) =>
    text
      .trim()
      .replace(/\s+/g, " ")
      .replace(/(\d)(st|nd|rd|th)\b/g, "$1")
      .replace(/\bphase([abc])\b/gi, "phase $1");
  const normalise = (en: string) => {
    let n = 0;
    const pattern = prepare(en).replace(TOKENS, () => `{${++n}}`);
    return pattern.toLowerCase();
  };
  for (const file of readdirSync(src)
    .filter((f) => /^translations-\d+(-[a-z]+)?\.tsv$/.test(f))
    .sort()) {
    for (const row of tsv(join(src, file))) {
      const key = normalise(row.en ?? "");
      const entry = patterns.get(key) ?? {};
      for (const lang of ["zh-CN", "it", "es", "ja"] as const) {
        const text = row[lang];
        if (!text) continue;
        if (entry[lang] && entry[lang] !== text) process.stderr.write(`${file}: "${row.en}" (${lang}) given twice, last wins\n`);
        entry[lang] = text;
      }
      patterns.set(key, entry);
    }
  }
  const untranslated = new Map<Lang, Set<string>>();
  function translate(en: string, lang: Lang): string | undefined {
    const digits = tokensOf(prepare(en));
    const pattern = patterns.get(normalise(en))?.[lang];
    if (!pattern) {
      const set = untranslated.get(lang) ?? new Set();
      set.add(normalise(en));
      untranslated.set(lang, set);
      return undefined;
    }
    return pattern.replace(/\{(\d+)\}/g, (_m, i: string) => digits[Number(i) - 1] ?? "");
  }

  // Values the reference labels only in Chinese: zh pattern → en/it/es/ja pattern.
  const byChinese = new Map<string, Partial<Record<Lang, string>>>();
  for (const row of tsv(join(src, "translations-from-zh.tsv"))) byChinese.set(normalise(row["zh-CN"] ?? ""), row);
  function fromChinese(zh: string, lang: Lang): string | undefined {
    const digits = zh.match(/\d+/g) ?? [];
    return byChinese.get(normalise(zh))?.[lang]?.replace(/\{(\d+)\}/g, (_m, i: string) => digits[Number(i) - 1] ?? "");
  }

  /** Labels of one key: the reference's en/zh/it, our fills, then the pattern tables. */
  function labelsOf(enGiven: string, zh: string, it: string): Record<Lang, string | undefined> {
    const en = enGiven || (zh ? (fromChinese(zh, "en-US") ?? "") : "");
    if (!enGiven && zh && !en) {
      const set = untranslated.get("en-US") ?? new Set();
      set.add(zh.replace(/\d+/g, "#"));
      untranslated.set("en-US", set);
    }
    const other = (lang: Lang) => (!enGiven && zh ? fromChinese(zh, lang) : undefined) ?? translate(en, lang);
    return {
      "en-US": en || undefined,
      "zh-CN": zh || translate(en, "zh-CN"),
      it: it || other("it"),
      es: other("es"),
      ja: other("ja"),
    };
  }

  return { labelsOf, untranslated };
}
