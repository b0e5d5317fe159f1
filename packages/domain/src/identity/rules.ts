import { type CountryCode, isSupportedCountry, parsePhoneNumberFromString } from "libphonenumber-js/max";

/**
 * Validation rules of accounts (spec §5), shared by the server's contracts and the console's forms.
 * The password rule is PASSWORD_RULE in product.ts.
 */

/**
 * Telephone numbers (spec §5: "11 digits, with a format message") are checked and normalised with
 * libphonenumber-js and its full metadata: a number written with its country code (+39 333 …) is
 * read as such; one without is read in the default country: PHONE_DEFAULT_COUNTRY (CN: the 11-digit
 * mobile numbers of spec §5) unless the server's configuration (ESS_PHONE_COUNTRY) chose another at
 * start. What is stored is the E.164 form (+8613800138000).
 */
/** An ISO 3166-1 alpha-2 country code libphonenumber-js knows. */
export type PhoneCountry = CountryCode;
export const PHONE_DEFAULT_COUNTRY: CountryCode = "CN";
let defaultCountry: CountryCode = PHONE_DEFAULT_COUNTRY;

/** Whether libphonenumber-js knows the ISO 3166-1 alpha-2 code (AU, CN, IT…). */
export const isPhoneCountry = (code: string): code is CountryCode => isSupportedCountry(code);

/** The country a number without its country code belongs to, from the server's configuration. */
export function setPhoneDefaultCountry(code: CountryCode) {
  defaultCountry = code;
}
/** Longest text accepted as a phone number before parsing (spaces, dashes, brackets included). */
export const PHONE_MAX_LENGTH = 24;

/** The number in E.164 (`+8613800138000`), or null when it is not a valid telephone number. */
export function normalisePhone(value: string, country: CountryCode = defaultCountry): string | null {
  if (value.length > PHONE_MAX_LENGTH || !/^[+0-9 ().-]+$/.test(value.trim())) return null;
  const parsed = parsePhoneNumberFromString(value.trim(), country);
  return parsed?.isValid() ? parsed.number : null;
}

export function isPhoneNumber(value: string, country: CountryCode = defaultCountry): boolean {
  return normalisePhone(value, country) !== null;
}

/** An account name: letters, digits and . _ @ - (e-mail addresses allowed), 2 to 64 characters. */
export const ACCOUNT_RULE = { min: 2, max: 64, pattern: /^[A-Za-z0-9._@+-]+$/ } as const;

let zones: Set<string> | null = null;
/** An IANA time zone name known to the runtime (site and user time zones are DST-aware). */
export function isTimeZone(value: string): boolean {
  zones ??= new Set([...Intl.supportedValuesOf("timeZone"), "UTC"]);
  return zones.has(value);
}

/** Sign-in protection defaults (the server's configuration may change them). */
export const SIGN_IN_LIMITS = {
  /** Failed sign-ins of one account before it locks. */
  accountFailures: 5,
  /** Minutes a locked account stays locked before it unlocks by itself. */
  lockMinutes: 15,
  /** Failed sign-ins from one address within the window before it must wait. */
  addressFailures: 20,
  addressWindowMinutes: 15,
} as const;

/** Gender in personal information (spec §5: required): 1 male, 2 female, 3 another or not said. */
export const GENDERS = { male: 1, female: 2, other: 3 } as const;
export const GENDER_VALUES = Object.values(GENDERS);

/** A date of birth: a real calendar day, not before 1900 and not after today (UTC). */
export function isBirthDate(value: string, today = new Date()): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const day = new Date(Date.UTC(y, m - 1, d));
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d) return false;
  return y >= 1900 && value <= today.toISOString().slice(0, 10);
}
