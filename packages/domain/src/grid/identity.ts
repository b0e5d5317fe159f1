/**
 * Device identifiers of IEEE 2030.5 (the protocol of CSIP-AUS) and the aggregator's own identifiers.
 *
 * - LFDI (long-form device identifier): the leftmost 160 bits of the SHA-256 digest of the device's
 *   X.509 certificate in DER form, written as 40 upper-case hexadecimal digits.
 * - SFDI (short-form device identifier): the leftmost 36 bits of the same digest read as a decimal
 *   number, followed by one check digit chosen so that the sum of all digits is a multiple of 10.
 *   2^36 − 1 = 68719476735 has 11 digits, so an SFDI has up to 12; the schema bounds it by 687194767359.
 * - An aggregator speaks for sites whose EndDevices it creates itself; CSIP-AUS wants their LFDIs
 *   and every mRID it creates (128 bits, 32 hexadecimal digits) to end in the aggregator's IANA
 *   Private Enterprise Number written in decimal and zero-padded to 8 characters.
 *
 * Everything here is pure (no hashing): the digest of a certificate comes from `hashed-identity.ts`,
 * which uses node:crypto and is therefore imported by the server only.
 */

/** Hexadecimal digits of an LFDI (160 bits). */
export const LFDI_HEX_LENGTH = 40;
/** Hexadecimal digits of an mRID (128 bits). */
export const MRID_HEX_LENGTH = 32;
/** Characters at the end of an aggregator-made LFDI or mRID that carry the PEN. */
export const PEN_SUFFIX_LENGTH = 8;
/** Largest PEN that fits the 8 decimal characters CSIP-AUS reserves for it. */
export const PEN_MAX = 99_999_999;
/** The schema's upper bound of an SFDI (SFDIType: 2^36 − 1 followed by a digit). */
export const SFDI_MAX = 687_194_767_359;

/** The aggregator's identity settings; the server's configuration overrides the default. */
export interface GridIdentityConfig {
  /** IANA Private Enterprise Number of the organisation running the console. */
  pen: number;
}

/**
 * Default identity settings. 32473 is the enterprise number IANA reserves for documentation
 * (RFC 5612), so nothing made with the default can clash with a real organisation's identifiers;
 * a deployment that registers with a network operator configures its own PEN.
 */
export const GRID_IDENTITY_DEFAULTS: Readonly<GridIdentityConfig> = Object.freeze({ pen: 32473 });

const HEX = /^[0-9A-F]+$/;

/** Whether the value is an LFDI as printed: 40 upper-case hexadecimal digits. */
export function isLfdi(value: string): boolean {
  return value.length === LFDI_HEX_LENGTH && HEX.test(value);
}

/**
 * The LFDI of a SHA-256 digest (of a certificate's DER bytes), given as 64 hexadecimal digits or
 * as the 32 digest bytes. Hex input may be lower case or use ':' separators (as OpenSSL prints
 * fingerprints).
 */
export function lfdiFromDigest(digest: string | Uint8Array): string {
  const hex =
    typeof digest === "string"
      ? digest.replaceAll(":", "").toUpperCase()
      : Array.from(digest, (b) => b.toString(16).padStart(2, "0"))
          .join("")
          .toUpperCase();
  if (hex.length !== 64 || !HEX.test(hex)) throw new RangeError("A SHA-256 digest has 64 hexadecimal digits");
  return hex.slice(0, LFDI_HEX_LENGTH);
}

function digitSum(digits: string): number {
  let sum = 0;
  for (const d of digits) sum += d.charCodeAt(0) - 48;
  return sum;
}

/** The check digit that makes the digit sum of `digits` followed by it a multiple of 10. */
export function sfdiCheckDigit(digits: string): number {
  return (10 - (digitSum(digits) % 10)) % 10;
}

/** The SFDI (decimal string, check digit included) of an LFDI: its first 36 bits plus the check digit. */
export function sfdiFromLfdi(lfdi: string): string {
  const upper = lfdi.toUpperCase();
  if (!isLfdi(upper)) throw new RangeError("An LFDI has 40 hexadecimal digits");
  // 36 bits = the first 9 hexadecimal digits; below 2^53, so a plain number is exact.
  const raw = String(Number.parseInt(upper.slice(0, 9), 16));
  return raw + String(sfdiCheckDigit(raw));
}

/** Whether the value is a well-formed SFDI: decimal, at most 2^36 − 1 before its check digit, digit sum a multiple of 10. */
export function isSfdi(value: string): boolean {
  if (!/^\d{1,12}$/.test(value) || Number(value) > SFDI_MAX) return false;
  return digitSum(value) % 10 === 0;
}

/** Whether the number can stand in the 8 decimal characters of an aggregator-made identifier. */
export function isPen(pen: number): boolean {
  return Number.isInteger(pen) && pen >= 1 && pen <= PEN_MAX;
}

/** The PEN as CSIP-AUS writes it at the end of identifiers: decimal, zero-padded to 8 characters. */
export function penSuffix(pen: number = GRID_IDENTITY_DEFAULTS.pen): string {
  if (!isPen(pen)) throw new RangeError(`A PEN is a whole number from 1 to ${PEN_MAX}`);
  return String(pen).padStart(PEN_SUFFIX_LENGTH, "0");
}

function withPen(prefix: string, totalLength: number, pen: number): string {
  const upper = prefix.toUpperCase();
  const want = totalLength - PEN_SUFFIX_LENGTH;
  if (upper.length !== want || !HEX.test(upper)) throw new RangeError(`The prefix must be ${want} hexadecimal digits`);
  return upper + penSuffix(pen);
}

/** An aggregator-made LFDI: 32 hexadecimal digits chosen by the aggregator, then the PEN suffix. */
export function lfdiWithPen(prefix: string, pen: number = GRID_IDENTITY_DEFAULTS.pen): string {
  return withPen(prefix, LFDI_HEX_LENGTH, pen);
}

/** An mRID made by the aggregator: 24 hexadecimal digits unique to the object, then the PEN suffix. */
export function mridWithPen(prefix: string, pen: number = GRID_IDENTITY_DEFAULTS.pen): string {
  return withPen(prefix, MRID_HEX_LENGTH, pen);
}

/** Whether the value is an mRID as printed: 32 upper-case hexadecimal digits. */
export function isMrid(value: string): boolean {
  return value.length === MRID_HEX_LENGTH && HEX.test(value);
}

/** Whether an LFDI or mRID ends in the PEN written the CSIP-AUS way. */
export function endsWithPen(identifier: string, pen: number = GRID_IDENTITY_DEFAULTS.pen): boolean {
  return isPen(pen) && identifier.endsWith(penSuffix(pen));
}

/**
 * A registration PIN as the Registration resource carries it: six decimal digits, the last a check
 * digit (the schema: "including the checksum digit"). The check digit is taken to be the SFDI's
 * sum-of-digits one; the conformance procedures' PIN 111115 (11111 with check digit 5) agrees, the
 * standard's own wording of the rule was not read.
 */
export function pinWithCheckDigit(fiveDigits: string): string {
  if (!/^\d{5}$/.test(fiveDigits)) throw new RangeError("A PIN before its check digit has five digits");
  return fiveDigits + String(sfdiCheckDigit(fiveDigits));
}

/** Whether the value is a six-digit PIN whose last digit is its check digit. */
export function isRegistrationPin(value: string): boolean {
  return /^\d{6}$/.test(value) && pinWithCheckDigit(value.slice(0, 5)) === value;
}
