/** Engineering values by register id (what a page read answers, what a form holds). */
export type SettingValues = Readonly<Record<string, number | string | null | undefined>>;
