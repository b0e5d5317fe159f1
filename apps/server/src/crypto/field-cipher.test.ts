import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createFieldCipher, parseFieldKey } from "./field-cipher.ts";

describe("field cipher", () => {
  const key = randomBytes(32);
  const cipher = createFieldCipher(key);

  it("seals so that the stored text holds none of the digits and opens to the same text", () => {
    const sealed = cipher.seal("062000", "bank_bsb");
    expect(sealed).not.toContain("062000");
    expect(sealed).toMatch(/^v1\./);
    expect(cipher.open(sealed, "bank_bsb")).toBe("062000");
    // A fresh nonce each time: the same value is never stored twice alike.
    expect(cipher.seal("062000", "bank_bsb")).not.toBe(sealed);
  });

  it("refuses a value moved to another column, altered, or sealed under a key it does not hold", () => {
    const sealed = cipher.seal("12345678", "bank_account_number");
    expect(() => cipher.open(sealed, "bank_bsb")).toThrow();
    const parts = sealed.split(".");
    const body = Buffer.from(parts[3] as string, "base64url");
    body[0] = (body[0] as number) ^ 1;
    expect(() => cipher.open([...parts.slice(0, 3), body.toString("base64url")].join("."), "bank_account_number")).toThrow();
    expect(() => createFieldCipher(randomBytes(32)).open(sealed, "bank_account_number")).toThrow();
  });

  it("opens values sealed under the previous key after a rotation", () => {
    const rotated = createFieldCipher(randomBytes(32), [key]);
    const old = cipher.seal("Jane Citizen", "bank_account_name");
    expect(rotated.open(old, "bank_account_name")).toBe("Jane Citizen");
  });

  it("reads keys as base64 or hex, and nothing shorter", () => {
    expect(parseFieldKey(key.toString("base64"))?.equals(key)).toBe(true);
    expect(parseFieldKey(key.toString("hex"))?.equals(key)).toBe(true);
    expect(parseFieldKey(key.toString("base64url"))?.equals(key)).toBe(true);
    expect(parseFieldKey(randomBytes(16).toString("base64"))).toBeNull();
    expect(parseFieldKey("not a key")).toBeNull();
  });
});
