import { describe, expect, it } from "vitest";
import { isReferralCode, maskAccountName, maskAccountNumber, maskBsb, normaliseAccountNumber, normaliseBsb } from "./referral.ts";

describe("referral bank details", () => {
  it("reads a BSB written with a dash or a space, and nothing but six digits", () => {
    expect(normaliseBsb("062-000")).toBe("062000");
    expect(normaliseBsb(" 062 000 ")).toBe("062000");
    expect(normaliseBsb("06200")).toBeNull();
    expect(normaliseBsb("0620001")).toBeNull();
    expect(normaliseBsb("06A000")).toBeNull();
  });

  it("reads account numbers of 5 to 10 digits", () => {
    expect(normaliseAccountNumber("1234 5678")).toBe("12345678");
    expect(normaliseAccountNumber("1234")).toBeNull();
    expect(normaliseAccountNumber("12345678901")).toBeNull();
  });

  it("masks so that the digits cannot be recovered but accounts can be told apart", () => {
    expect(maskBsb("062000")).toBe("***-*00");
    expect(maskAccountNumber("12345678")).toBe("*****678");
    expect(maskAccountName("Jane  Citizen")).toBe("J***  C******");
    expect(maskAccountName("王小明")).toBe("王**");
  });

  it("knows its codes", () => {
    expect(isReferralCode("AB23CD45")).toBe(true);
    expect(isReferralCode("AB23CD4O")).toBe(false);
    expect(isReferralCode("AB23")).toBe(false);
  });
});
