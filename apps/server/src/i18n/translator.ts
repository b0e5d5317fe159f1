import { LOCALES, type Locale, negotiateLocale, SOURCE_LOCALE } from "@ess/domain";
import { listNamespaces, loadAllResources } from "@ess/i18n/node";
import i18next, { type TFunction } from "i18next";

export type Translate = (key: string, values?: Record<string, unknown>) => string;

/**
 * One i18next instance over every namespace of every locale, read once at start-up. Keys are
 * written `namespace:key`; an unknown key falls back to the source language, then to the key.
 */
export async function createTranslator(): Promise<(locale: Locale) => Translate> {
  const instance = i18next.createInstance();
  const namespaces = listNamespaces();
  await instance.init({
    resources: loadAllResources(),
    supportedLngs: [...LOCALES],
    lng: SOURCE_LOCALE,
    fallbackLng: SOURCE_LOCALE,
    ns: namespaces,
    defaultNS: "common",
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  const fixed = new Map<Locale, TFunction>(LOCALES.map((l) => [l, instance.getFixedT(l)]));
  return (locale) => {
    const t = fixed.get(locale) ?? (fixed.get(SOURCE_LOCALE) as TFunction);
    return (key, values) => t(key, values ?? {}) as string;
  };
}

export function localeOf(acceptLanguage: string | undefined): Locale {
  return negotiateLocale(acceptLanguage);
}
