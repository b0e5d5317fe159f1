import { LOCALES } from "@ess/domain/locales.ts";
import { describe, expect, it } from "vitest";
import { DATE_PATTERNS } from "./date-patterns.ts";
import { formatDate, formatDateTime, formatInstant, todayIn } from "./date-time.ts";

// 2026-02-21 00:00:00 in UTC; 01:00 in Amsterdam, 08:00 in Shanghai, 2026-02-20 19:00 in New York.
const AT = Date.UTC(2026, 1, 21, 0, 0, 0);

describe("the console's date and time format", () => {
  it("writes one instant the same way everywhere in a language, each language its own way", () => {
    const shown = Object.fromEntries(LOCALES.map((l) => [l, formatDateTime(AT, { timeZone: "UTC", locale: l })]));
    expect(shown).toEqual({
      "zh-CN": "2026-02-21 00:00:00",
      "en-US": "02/21/2026 00:00:00",
      it: "21/02/2026 00:00:00",
      es: "21/02/2026 00:00:00",
      ja: "2026/02/21 00:00:00",
    });
    // An ISO text, epoch milliseconds and a Date are the same instant.
    for (const value of [new Date(AT).toISOString(), AT, new Date(AT)]) {
      expect(formatDateTime(value, { timeZone: "UTC", locale: "en-US" })).toBe("02/21/2026 00:00:00");
    }
    expect(formatDate(AT, { timeZone: "UTC", locale: "ja" })).toBe("2026/02/21");
  });

  it("writes a device's time in the device's zone, its day included", () => {
    expect(formatDateTime(AT, { timeZone: "Europe/Amsterdam", locale: "zh-CN" })).toBe("2026-02-21 01:00:00");
    expect(formatDateTime(AT, { timeZone: "Asia/Shanghai", locale: "zh-CN" })).toBe("2026-02-21 08:00:00");
    expect(formatDateTime(AT, { timeZone: "America/New_York", locale: "zh-CN" })).toBe("2026-02-20 19:00:00");
    expect(formatInstant(AT, "minute", { timeZone: "Australia/Sydney" })).toBe("11:00");
    // Summer time: Amsterdam is two hours ahead in July.
    expect(formatInstant(Date.UTC(2026, 6, 1, 12), "minute", { timeZone: "Europe/Amsterdam" })).toBe("14:00");
  });

  it("says nothing rather than something wrong", () => {
    expect(formatDateTime(null)).toBe("—");
    expect(formatDateTime(undefined)).toBe("—");
    expect(formatDateTime("not a date")).toBe("—");
    // An unknown zone falls back to the browser's clock rather than failing the page.
    expect(formatDateTime(AT, { timeZone: "Mars/Olympus", locale: "zh-CN" })).toMatch(/^2026-02-2[01] \d\d:00:00$/);
  });

  it("knows a device's today in its own zone", () => {
    expect(todayIn("Pacific/Kiritimati")).not.toBe(todayIn("Pacific/Pago_Pago"));
    expect(todayIn("UTC")).toBe(new Date().toISOString().slice(0, 10));
  });

  it("has every pattern in every language", () => {
    for (const l of LOCALES)
      expect(Object.keys(DATE_PATTERNS[l]).sort()).toEqual(["date", "dateTime", "minute", "month", "time", "year"]);
  });
});
