import { persistedStore, useStore } from "./persisted-store.ts";

/** The six themes of spec §2 Theme. */
export const THEMES = ["default", "theme-white", "theme-star", "theme-iview", "theme-d2", "theme-hey"] as const;
export type ThemeName = (typeof THEMES)[number];

/** The colour picker's seven presets; the first is the default theme colour (spec §9). */
export const THEME_COLOURS = ["#409EFF", "#1890FF", "#304156", "#11A983", "#13C2C2", "#6959CD", "#F5222D"] as const;

/** The eight switches of the settings drawer (spec §2 Layout), all on by default. */
export const SWITCHES = ["tag", "debug", "theme", "color", "fullscreen", "lock", "collapse", "menu"] as const;
export type SwitchName = (typeof SWITCHES)[number];

/** UI preferences of spec §3 that outlive the session (local storage). Language is kept by i18n. */
export interface Preferences {
  themeColor: string;
  themeName: ThemeName;
  collapsed: boolean;
  show: Record<SwitchName, boolean>;
}

export const DEFAULT_PREFERENCES: Preferences = {
  themeColor: THEME_COLOURS[0],
  themeName: "default",
  collapsed: false,
  show: Object.fromEntries(SWITCHES.map((s) => [s, true])) as Record<SwitchName, boolean>,
};

const HEX = /^#[0-9a-f]{6}$/i;

function revive(raw: unknown): Preferences {
  const value = (raw ?? {}) as Partial<Preferences>;
  const show = { ...DEFAULT_PREFERENCES.show };
  for (const s of SWITCHES) if (typeof value.show?.[s] === "boolean") show[s] = value.show[s];
  return {
    themeColor:
      typeof value.themeColor === "string" && HEX.test(value.themeColor) ? value.themeColor : DEFAULT_PREFERENCES.themeColor,
    themeName: THEMES.includes(value.themeName as ThemeName) ? (value.themeName as ThemeName) : DEFAULT_PREFERENCES.themeName,
    collapsed: value.collapsed === true,
    show,
  };
}

export const preferencesStore = persistedStore<Preferences>(() => localStorage, "ess.preferences", DEFAULT_PREFERENCES, revive);

export const usePreferences = () => useStore(preferencesStore);

export function setPreference<K extends keyof Preferences>(key: K, value: Preferences[K]) {
  preferencesStore.update((p) => ({ ...p, [key]: value }));
}

export function setSwitch(name: SwitchName, on: boolean) {
  preferencesStore.update((p) => ({ ...p, show: { ...p.show, [name]: on } }));
}
