import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LOCALES } from "../locales.ts";
import { REGISTERS } from "./catalogue.ts";
import { ENUMS, isEnumName } from "./enums.ts";

type Table = Record<string, Record<string, string>>;
const enumLabels = Object.fromEntries(
  LOCALES.map((l) => [l, JSON.parse(readFileSync(new URL(`../../../i18n/locales/${l}/enums.json`, import.meta.url), "utf8"))]),
) as Record<(typeof LOCALES)[number], Table>;

/** Every enumeration a setting offers as its options (a select of the settings forms). */
const settingEnums = [...new Set(REGISTERS.filter((r) => r.access === "readWrite" && r.enum).map((r) => r.enum as string))];
/** Codes, brands and numbers read the same in every language. */
const sameEverywhere = /^([A-Z0-9][A-Z0-9&.\-/ ]*|[0-9][\w ]*|East|Catch|Wi-?Fi)$/;
/** What the reference tables carry where a label is missing or was never written for a person. */
const RAW = /^(null|undefined|nan|n\/a|-|0x[0-9a-f]+)$/i;

describe("options of every enumerated setting", () => {
  it("are enumerations of the catalogue", () => {
    expect(settingEnums.length).toBeGreaterThan(30);
    for (const name of settingEnums) expect(isEnumName(name), name).toBe(true);
  });

  it.each(LOCALES)(
    "have a label a person can read in %s: present, not the bare code, not a placeholder, one per option",
    (locale) => {
      for (const name of settingEnums) {
        if (!isEnumName(name)) continue;
        const labels = ENUMS[name].values.map((v) => {
          const text = enumLabels[locale][name]?.[String(v)];
          expect(typeof text === "string" && text.trim() !== "", `${locale} enums:${name}.${v} missing`).toBe(true);
          expect(text?.trim(), `${locale} enums:${name}.${v} is the bare code`).not.toBe(String(v));
          expect(text, `${locale} enums:${name}.${v} is a placeholder`).not.toMatch(RAW);
          return text;
        });
        expect(new Set(labels).size, `${locale} enums:${name} labels two options alike: ${labels.join(" | ")}`).toBe(
          labels.length,
        );
      }
    },
  );

  it("read as English in English (a capital first, no raw words of the device's firmware)", () => {
    for (const name of settingEnums) {
      if (!isEnumName(name)) continue;
      for (const v of ENUMS[name].values) {
        const text = enumLabels["en-US"][name]?.[String(v)] ?? "";
        expect(text, `en-US enums:${name}.${v}`).toMatch(/^[A-Z0-9(]/);
        expect(text, `en-US enums:${name}.${v}`).not.toMatch(/\bNot Enable\b|\bprohibit\b|\bshield\b/i);
      }
    }
  });

  it("are written in Chinese and Japanese rather than copied from English", () => {
    for (const name of settingEnums) {
      if (!isEnumName(name)) continue;
      for (const v of ENUMS[name].values) {
        const english = enumLabels["en-US"][name]?.[String(v)] ?? "";
        if (sameEverywhere.test(english)) continue;
        expect(enumLabels["zh-CN"][name]?.[String(v)], `zh-CN enums:${name}.${v}`).toMatch(/[^\x20-\x7e]/);
        expect(enumLabels.ja[name]?.[String(v)], `ja enums:${name}.${v}`).toMatch(/[^\x20-\x7e]/);
      }
    }
  });

  it("say the same thing the same way: every on/off switch reads Disabled/Enabled", () => {
    for (const name of ["prohibitEnable", "notEnabledEnabled", "drmEnable", "enableState"]) {
      expect(enumLabels["en-US"][name], name).toEqual({ "0": "Disabled", "1": "Enabled" });
      expect(enumLabels.ja[name], name).toEqual(enumLabels.ja.enableState);
    }
  });
});
