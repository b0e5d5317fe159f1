import { describe, expect, it } from "vitest";
import { compareVersions, gradeFits, textFor } from "./faq.ts";

describe("FAQ and region rules", () => {
  it("answers the reader's language, else English, else Chinese", () => {
    const texts = { "zh-CN": "电池", "en-US": "Battery", it: "", es: " ", ja: "電池" };
    expect(textFor(texts, "ja")).toBe("電池");
    expect(textFor(texts, "it")).toBe("Battery");
    expect(textFor(texts, "es")).toBe("Battery");
    expect(textFor({ "zh-CN": "电池" }, "it")).toBe("电池");
  });

  it("puts a country at the top and each child one grade below its parent", () => {
    expect(gradeFits(0, null)).toBe(true);
    expect(gradeFits(1, null)).toBe(false);
    expect(gradeFits(1, 0)).toBe(true);
    expect(gradeFits(2, 0)).toBe(false);
    expect(gradeFits(2, 1)).toBe(true);
  });

  it("compares dotted versions by number", () => {
    expect(compareVersions("1.10", "1.9")).toBeGreaterThan(0);
    expect(compareVersions("2", "2.0")).toBe(0);
    expect(compareVersions("3.1.0", "3.2")).toBeLessThan(0);
  });
});
