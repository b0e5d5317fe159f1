import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { certificateIdentity, derivedMrid, siteIdentity } from "./hashed-identity.ts";
import {
  endsWithPen,
  GRID_IDENTITY_DEFAULTS,
  isLfdi,
  isMrid,
  isPen,
  isRegistrationPin,
  isSfdi,
  lfdiFromDigest,
  lfdiWithPen,
  mridWithPen,
  penSuffix,
  pinWithCheckDigit,
  SFDI_MAX,
  sfdiFromLfdi,
} from "./identity.ts";

// IEEE 2030.5's own worked example: a certificate whose SHA-256 digest is the value below has the
// LFDI of its leftmost 160 bits and the SFDI 167261211391 (quoted as "the 2030.5 standard example"
// by bsgip/envoy tests/unit/server/crud/test_common.py and longzheng/open-dynamic-export
// src/sep2/helpers/cert.test.ts).
const STANDARD_DIGEST = "3E4F45AB31EDFE5B67E343E5E4562E31984E23E5349E2AD745672ED145EE213A";
const STANDARD_LFDI = "3E4F45AB31EDFE5B67E343E5E4562E31984E23E5";
const STANDARD_SFDI = "167261211391";

// A published test certificate with its published fingerprint, LFDI and SFDI
// (bsgip/envoy tests/data/certificates/certificate1.py, MIT licence).
const ENVOY_CERTIFICATE_PEM = readFileSync(new URL("./fixtures/envoy-test-certificate-1.pem", import.meta.url), "utf8");
const ENVOY_FINGERPRINT = "854d10a201ca99e5e90d3c3e1f9bc1c3bd075f3b89298d159ca526e069457b5a";
const ENVOY_LFDI = "854D10A201CA99E5E90D3C3E1F9BC1C3BD075F3B";
const ENVOY_SFDI = "357827241281";

describe("LFDI and SFDI (IEEE 2030.5)", () => {
  it("takes the leftmost 160 bits of the digest as the LFDI and derives the standard's SFDI from it", () => {
    expect(lfdiFromDigest(STANDARD_DIGEST)).toBe(STANDARD_LFDI);
    expect(sfdiFromLfdi(STANDARD_LFDI)).toBe(STANDARD_SFDI);
    expect(sfdiFromLfdi(STANDARD_LFDI.toLowerCase())).toBe(STANDARD_SFDI);
  });

  it("reads digests written in lower case, with colons, or as bytes", () => {
    expect(lfdiFromDigest(ENVOY_FINGERPRINT)).toBe(ENVOY_LFDI);
    expect(lfdiFromDigest(ENVOY_FINGERPRINT.match(/../g)?.join(":") ?? "")).toBe(ENVOY_LFDI);
    expect(lfdiFromDigest(Buffer.from(ENVOY_FINGERPRINT, "hex"))).toBe(ENVOY_LFDI);
    expect(() => lfdiFromDigest("3E4F")).toThrow(RangeError);
    expect(() => lfdiFromDigest(`${STANDARD_DIGEST.slice(0, 63)}G`)).toThrow(RangeError);
  });

  it("derives a published certificate's LFDI and SFDI from its DER bytes", () => {
    expect(certificateIdentity(ENVOY_CERTIFICATE_PEM)).toEqual({ lfdi: ENVOY_LFDI, sfdi: ENVOY_SFDI });
    const der = Buffer.from(ENVOY_CERTIFICATE_PEM.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s/g, ""), "base64");
    expect(certificateIdentity(new Uint8Array(der))).toEqual({ lfdi: ENVOY_LFDI, sfdi: ENVOY_SFDI });
  });

  it("accepts only well-formed LFDIs and SFDIs", () => {
    expect(isLfdi(STANDARD_LFDI)).toBe(true);
    expect(isLfdi(STANDARD_LFDI.toLowerCase())).toBe(false);
    expect(isLfdi(STANDARD_LFDI.slice(1))).toBe(false);
    expect(isSfdi(STANDARD_SFDI)).toBe(true);
    expect(isSfdi(ENVOY_SFDI)).toBe(true);
    // The ALL-01 fixture's out-of-band SFDI is the raw 36-bit value without its check digit.
    expect(isSfdi("16726121139")).toBe(false);
    expect(isSfdi("167261211392")).toBe(false);
    // The largest 36-bit value, 68719476735, has the digit sum 63: its check digit is 7.
    expect(sfdiFromLfdi(`FFFFFFFFF${"0".repeat(31)}`)).toBe("687194767357");
    expect(isSfdi("687194767357")).toBe(true);
    expect(isSfdi(String(SFDI_MAX + 1))).toBe(false);
    expect(() => sfdiFromLfdi("FFFF")).toThrow(RangeError);
  });
});

describe("Identifiers the aggregator makes (CSIP-AUS)", () => {
  it("ends them in the PEN written in decimal and zero-padded to eight characters", () => {
    expect(penSuffix(12345)).toBe("00012345");
    expect(penSuffix()).toBe("00032473");
    expect(lfdiWithPen("aa402e1ad2d673bae72163fefaa05bfc", 12345)).toBe("AA402E1AD2D673BAE72163FEFAA05BFC00012345");
    expect(mridWithPen("0123456789ABCDEF01234567", 12345)).toBe("0123456789ABCDEF0123456700012345");
    expect(endsWithPen("AA402E1AD2D673BAE72163FEFAA05BFC00012345", 12345)).toBe(true);
    expect(endsWithPen("AA402E1AD2D673BAE72163FEFAA05BFC00003039", 12345)).toBe(false);
    expect(() => lfdiWithPen("AA40", 12345)).toThrow(RangeError);
    expect(() => penSuffix(0)).toThrow(RangeError);
    expect(() => penSuffix(100_000_000)).toThrow(RangeError);
    expect(isPen(GRID_IDENTITY_DEFAULTS.pen)).toBe(true);
  });

  it("gives every site a stable LFDI of its own with a matching SFDI", () => {
    const a = siteIdentity(ENVOY_LFDI, "site-1", 12345);
    expect(siteIdentity(ENVOY_LFDI, "site-1", 12345)).toEqual(a);
    expect(isLfdi(a.lfdi)).toBe(true);
    expect(endsWithPen(a.lfdi, 12345)).toBe(true);
    expect(a.sfdi).toBe(sfdiFromLfdi(a.lfdi));
    expect(isSfdi(a.sfdi)).toBe(true);
    expect(siteIdentity(ENVOY_LFDI, "site-2", 12345).lfdi).not.toBe(a.lfdi);
    expect(siteIdentity(STANDARD_LFDI, "site-1", 12345).lfdi).not.toBe(a.lfdi);
    expect(a.lfdi).not.toBe(ENVOY_LFDI);
    expect(() => siteIdentity("abc", "site-1")).toThrow(RangeError);
  });

  it("makes stable mRIDs of 128 bits ending in the PEN", () => {
    const m = derivedMrid(["site-1", "mup", "site"], 12345);
    expect(isMrid(m)).toBe(true);
    expect(m.endsWith("00012345")).toBe(true);
    expect(derivedMrid(["site-1", "mup", "site"], 12345)).toBe(m);
    expect(derivedMrid(["site-1", "mup", "der"], 12345)).not.toBe(m);
    expect(derivedMrid(["site-1m", "up", "site"], 12345)).not.toBe(m);
  });
});

describe("Registration PIN", () => {
  it("carries a check digit: the conformance procedures' PIN 111115 is 11111 with its check digit", () => {
    expect(pinWithCheckDigit("11111")).toBe("111115");
    expect(isRegistrationPin("111115")).toBe(true);
    expect(isRegistrationPin("111116")).toBe(false);
    expect(isRegistrationPin("11111")).toBe(false);
    expect(() => pinWithCheckDigit("1111")).toThrow(RangeError);
  });
});
