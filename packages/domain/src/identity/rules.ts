/**
 * Validation rules of accounts (spec §5), shared by the server's contracts and the console's forms.
 * The password rule is PASSWORD_RULE in product.ts.
 */

/** A telephone number: optional +, then 6 to 15 digits, spaces or dashes allowed between. */
export const PHONE_RULE = { pattern: /^\+?[0-9][0-9 -]{4,18}[0-9]$/, maxDigits: 15 } as const;

export function isPhoneNumber(value: string): boolean {
  return PHONE_RULE.pattern.test(value) && value.replace(/\D/g, "").length <= PHONE_RULE.maxDigits;
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
