import { describe, expect, it } from "vitest";
import { isPhoneCountry, isPhoneNumber, normalisePhone, PHONE_DEFAULT_COUNTRY, setPhoneDefaultCountry } from "./rules.ts";

// Published example numbers of each numbering plan (libphonenumber's examples, ACMA's fictional mobile range).
describe("phone numbers", () => {
  it("normalises national and international forms to E.164", () => {
    expect(normalisePhone("13800138000")).toBe("+8613800138000");
    expect(normalisePhone("138 0013 8000")).toBe("+8613800138000");
    expect(normalisePhone("+86 138 0013 8000")).toBe("+8613800138000");
    expect(normalisePhone("+39 312 345 6789")).toBe("+393123456789");
    expect(normalisePhone("+61 491 570 156")).toBe("+61491570156");
    expect(normalisePhone("0491 570 156", "AU")).toBe("+61491570156");
    expect(normalisePhone("+44 20 7946 0958")).toBe("+442079460958");
    expect(normalisePhone("+1 (201) 555-0123")).toBe("+12015550123");
    expect(normalisePhone("+81 90-1234-5678")).toBe("+819012345678");
  });

  it("refuses numbers that no numbering plan allows", () => {
    for (const bad of ["123", "12345678901", "+86 123 4567 8901", "1380013800", "+39 000", "abc13800138000", "+1 555 0123", ""]) {
      expect(isPhoneNumber(bad), bad).toBe(false);
      expect(normalisePhone(bad), bad).toBeNull();
    }
  });

  it("accepts the 11-digit mobile numbers of spec §5", () => {
    expect(isPhoneNumber("13912345678")).toBe(true);
    expect(isPhoneNumber("15012345678")).toBe(true);
  });

  it("reads national numbers in the configured country", () => {
    expect(isPhoneCountry("AU")).toBe(true);
    expect(isPhoneCountry("XX")).toBe(false);
    setPhoneDefaultCountry("AU");
    try {
      expect(normalisePhone("0491 570 156")).toBe("+61491570156");
      expect(normalisePhone("+86 138 0013 8000")).toBe("+8613800138000");
    } finally {
      setPhoneDefaultCountry(PHONE_DEFAULT_COUNTRY);
    }
    expect(normalisePhone("0491 570 156")).toBeNull();
  });
});
