import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LOCALES } from "../locales.ts";
import { REGISTERS } from "./catalogue.ts";
import { ENUM_NAMES, ENUMS } from "./enums.ts";

type Tree = { [key: string]: string | Tree };
const load = (locale: string, ns: string) =>
  JSON.parse(readFileSync(new URL(`../../../i18n/locales/${locale}/${ns}.json`, import.meta.url), "utf8")) as Tree;
const labels = Object.fromEntries(LOCALES.map((l) => [l, { registers: load(l, "registers"), enums: load(l, "enums") }]));

/** Codes, brands and numbers read the same in every language. */
const sameEverywhere = /^([A-Z0-9][A-Za-z0-9&.\-/ ]*|Catch|East|Wi-?Fi)$/;

describe("catalogue labels", () => {
  it("labels every register and key in all five languages", () => {
    for (const locale of LOCALES) {
      for (const r of REGISTERS) {
        const text = labels[locale]?.registers[r.id];
        expect(typeof text === "string" && text.trim().length > 0, `${locale} registers:${r.id}`).toBe(true);
      }
    }
  });

  it("labels every enumeration value in all five languages", () => {
    for (const locale of LOCALES) {
      for (const name of ENUM_NAMES) {
        for (const value of ENUMS[name].values) {
          const table = labels[locale]?.enums[name];
          const text = typeof table === "object" ? table[String(value)] : undefined;
          expect(typeof text === "string" && text.trim().length > 0, `${locale} enums:${name}.${value}`).toBe(true);
        }
      }
    }
  });

  it("writes Spanish and Japanese rather than copying English", () => {
    const en = labels["en-US"]?.registers ?? {};
    for (const [id, english] of Object.entries(en)) {
      if (typeof english !== "string" || sameEverywhere.test(english)) continue;
      expect(labels.es?.registers[id], `es registers:${id}`).not.toBe(english);
      expect(String(labels.ja?.registers[id]), `ja registers:${id}`).toMatch(/[^\x20-\x7e]/);
    }
  });

  it("carries numbers and phase letters of the English label into Spanish and Japanese", () => {
    const en = labels["en-US"]?.registers ?? {};
    const digits = (t: string) => (t.match(/\d+/g) ?? []).sort();
    for (const [id, english] of Object.entries(en)) {
      if (typeof english !== "string") continue;
      const es = String(labels.es?.registers[id]);
      const ja = String(labels.ja?.registers[id]);
      expect(digits(es), `es registers:${id}`).toEqual(expect.arrayContaining(digits(english)));
      expect(digits(ja), `ja registers:${id}`).toEqual(expect.arrayContaining(digits(english)));
      const phase = /\bphase ?([abc])\b/i.exec(english)?.[1]?.toUpperCase();
      if (phase) {
        expect(es, `es registers:${id}`).toContain(`fase ${phase}`);
        expect(ja, `ja registers:${id}`).toContain(`${phase}相`);
      }
    }
  });

  it("reads as an installer expects", () => {
    expect(labels["en-US"]?.registers.TP_0X04_25).toBe("Battery SOC");
    expect(labels.es?.registers.TP_0X04_25).toBe("Estado de carga de la batería");
    expect(labels.ja?.registers.TP_0X04_25).toBe("蓄電池SOC");
    expect(labels.ja?.registers.TP_0X04_103).toBe("A相系統電圧");
    expect(labels.es?.registers.TP_0X04_103).toBe("Tensión de red fase A");
    expect((labels["en-US"]?.enums.TP_0X04_14Filter as Tree | undefined)?.["8"]).toMatch(/S2/);
    expect((labels.es?.enums.TP_0X04_8Filter as Tree | undefined)?.["36864"]).toMatch(/control principal/);
  });
});
