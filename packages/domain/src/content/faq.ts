import type { Locale } from "../locales.ts";

/**
 * FAQ, regions and the app's latest version (spec §2 classifications and problems, address
 * management, versions; §3 Classification, Problem, Address; §4 address grade).
 */

/** Text in the five languages; zh-CN and en-US are required, the others may be empty. */
export type LocalisedText = Record<Locale, string>;

/** Languages whose text every FAQ item and region must have (spec §5: "names in both languages"). */
export const REQUIRED_TEXT_LOCALES = ["zh-CN", "en-US"] as const satisfies readonly Locale[];

/**
 * The text for a reader of `locale`: theirs, else English, else Chinese (the two required ones),
 * so an app in Italian shows English where no Italian was written.
 */
export function textFor(texts: Partial<Record<string, string>> | null | undefined, locale: Locale): string {
  for (const l of [locale, "en-US", "zh-CN"]) {
    const value = texts?.[l]?.trim();
    if (value) return value;
  }
  return "";
}

/** Problem state: 1 shown in the app, 0 hidden. */
export const FAQ_STATES = [1, 0] as const;

/** Address grade (spec §4): 0 country, 1 region, 2 residence. A child is one grade below its parent. */
export const REGION_GRADES = [0, 1, 2] as const;
export type RegionGrade = (typeof REGION_GRADES)[number];

/** Whether a node of `grade` may sit under `parentGrade` (null: no parent). */
export function gradeFits(grade: number, parentGrade: number | null): boolean {
  return parentGrade === null ? grade === 0 : grade === parentGrade + 1;
}

/**
 * Compares dotted version numbers (1.10 > 1.9, 2 = 2.0): negative, zero or positive like a sort
 * comparator.
 */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
