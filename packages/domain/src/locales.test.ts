import { describe, expect, it } from "vitest";
import { negotiateLocale } from "./locales.ts";

describe("choosing the console language", () => {
  it.each([
    [undefined, "zh-CN"],
    ["", "zh-CN"],
    ["en-US,en;q=0.9", "en-US"],
    ["en-GB", "en-US"],
    ["it-IT,it;q=0.9,en;q=0.8", "it"],
    ["es-MX", "es"],
    ["ja", "ja"],
    ["zh-TW", "zh-CN"],
    ["de-DE,fr;q=0.9", "zh-CN"],
    ["de;q=1, ja;q=0.2, it;q=0.5", "it"],
    ["it;q=0, en;q=0.1", "en-US"],
  ])("%s → %s", (header, expected) => {
    expect(negotiateLocale(header)).toBe(expected);
  });

  it("takes the browser's list in its order", () => {
    expect(negotiateLocale(["fr-FR", "ja-JP", "en-US"])).toBe("ja");
  });
});
