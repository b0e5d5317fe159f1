import { LOCALES, type Locale, SOURCE_LOCALE } from "@ess/domain";

export { LOCALES, type Locale, SOURCE_LOCALE };

/** A nested table of labels as stored in one `locales/<lang>/<namespace>.json`. */
export type LabelTree = { [key: string]: string | LabelTree };
/** All labels of one language, by namespace. */
export type LocaleResources = Record<string, LabelTree>;

/** Flattens a label tree to dotted keys, e.g. `{login: {title: "…"}}` → `login.title`. */
export function flattenLabels(tree: LabelTree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [k, v] of flattenLabels(value, path)) out.set(k, v);
  }
  return out;
}
