import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { LOCALES, type Locale } from "@ess/domain";
import type { LabelTree, LocaleResources } from "./index.ts";

export const LOCALES_DIR = fileURLToPath(new URL("../locales/", import.meta.url));

/** Namespaces are the JSON files of the source language. */
export function listNamespaces(): string[] {
  return readdirSync(join(LOCALES_DIR, "zh-CN"))
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.slice(0, -".json".length))
    .sort();
}

/** Reads every namespace of every locale from disk (server and tests; the web loads lazily). */
export function loadAllResources(): Record<Locale, LocaleResources> {
  const namespaces = listNamespaces();
  const out = {} as Record<Locale, LocaleResources>;
  for (const locale of LOCALES) {
    const resources: LocaleResources = {};
    for (const ns of namespaces) {
      try {
        resources[ns] = JSON.parse(readFileSync(join(LOCALES_DIR, locale, `${ns}.json`), "utf8")) as LabelTree;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") resources[ns] = {};
        else throw error;
      }
    }
    out[locale] = resources;
  }
  return out;
}
