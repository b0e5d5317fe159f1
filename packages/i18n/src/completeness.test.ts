import { describe, expect, it } from "vitest";
import { flattenLabels, LOCALES, SOURCE_LOCALE } from "./index.ts";
import { listNamespaces, loadAllResources } from "./node-loader.ts";

const resources = loadAllResources();
const placeholders = /\{\{\s*(\w+)\s*\}\}/g;

describe("every language carries every label", () => {
  for (const ns of listNamespaces()) {
    const source = flattenLabels(resources[SOURCE_LOCALE][ns] ?? {});
    for (const locale of LOCALES) {
      it(`${locale} ${ns}: no key missing, empty or extra, same placeholders`, () => {
        const labels = flattenLabels(resources[locale][ns] ?? {});
        const missing = [...source.keys()].filter((k) => !labels.get(k)?.trim());
        const extra = [...labels.keys()].filter((k) => !source.has(k));
        expect(missing, `missing or empty in ${locale}/${ns}.json`).toEqual([]);
        expect(extra, `keys in ${locale}/${ns}.json that zh-CN lacks`).toEqual([]);
        for (const [key, text] of source) {
          const want = [...text.matchAll(placeholders)].map((m) => m[1]).sort();
          const got = [...(labels.get(key) ?? "").matchAll(placeholders)].map((m) => m[1]).sort();
          expect(got, `placeholders of ${locale}/${ns}:${key}`).toEqual(want);
        }
      });
    }
  }
});
