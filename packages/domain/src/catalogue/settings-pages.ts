import { CATALOGUE_PAGES, REGISTERS } from "./catalogue.ts";

/**
 * The pages of a product that carry settings (three-phase 47, 48, 49; single-phase 8, 9, 11): the
 * device's settings show them as forms, and the details page does not show them again as data.
 * Live-data pages with a stray settable value (a BCU serial number, the country code on the
 * operation page) are data pages.
 */
export const SETTINGS_PAGES: Readonly<Record<"single" | "three", readonly number[]>> = {
  single: settingsPagesOf("single"),
  three: settingsPagesOf("three"),
};

function settingsPagesOf(product: "single" | "three"): number[] {
  return CATALOGUE_PAGES.filter(
    (p) => p.product === product && REGISTERS.filter((r) => r.page === p.page && r.access === "readWrite").length >= 10,
  ).map((p) => p.page);
}

/** Whether a catalogue page is a settings page (see SETTINGS_PAGES). */
export const isSettingsPage = (page: number) => SETTINGS_PAGES.single.includes(page) || SETTINGS_PAGES.three.includes(page);
