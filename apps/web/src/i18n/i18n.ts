import { isLocale, LOCALES, type Locale, negotiateLocale } from "@ess/domain/locales.ts";
import i18next, { type BackendModule } from "i18next";
import { initReactI18next } from "react-i18next";

/**
 * Labels come from packages/i18n, one lazily loaded chunk per language and namespace, so a
 * page downloads only the labels it shows.
 */
const loaders = import.meta.glob<{ default: Record<string, unknown> }>("../../../../packages/i18n/locales/*/*.json");

const loaderFor = (lng: string, ns: string) => loaders[`../../../../packages/i18n/locales/${lng}/${ns}.json`] ?? null;

const lazyBackend: BackendModule = {
  type: "backend",
  init() {},
  read(lng, ns, done) {
    const load = loaderFor(lng, ns);
    if (!load) return done(null, {});
    load().then(
      (module) => done(null, module.default),
      (error: Error) => done(error, null),
    );
  },
};

export const LANGUAGE_STORAGE_KEY = "ess.language";

/** The stored choice, else the browser's language, else zh-CN (spec §1). */
export function initialLanguage(): Locale {
  const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
  if (isLocale(stored)) return stored;
  return negotiateLocale(navigator.languages);
}

/** Namespaces every screen needs; features add their own with useTranslation(ns). */
export const CORE_NAMESPACES = ["common", "errors", "validation", "fields", "shell"];

export async function initI18n(): Promise<typeof i18next> {
  await i18next
    .use(lazyBackend)
    .use(initReactI18next)
    .init({
      lng: initialLanguage(),
      supportedLngs: [...LOCALES],
      fallbackLng: false,
      load: "currentOnly",
      ns: CORE_NAMESPACES,
      defaultNS: "common",
      interpolation: { escapeValue: false },
      // "loaded": a namespace that arrives after first render (a tab title of a page not yet opened) re-renders its users.
      react: { useSuspense: true, bindI18n: "languageChanged loaded" },
    });
  document.documentElement.lang = i18next.language;
  return i18next;
}

export async function changeLanguage(locale: Locale) {
  localStorage.setItem(LANGUAGE_STORAGE_KEY, locale);
  await i18next.changeLanguage(locale);
  document.documentElement.lang = locale;
}
