/**
 * Referral cash-back (Australian market, spec §2 "Referral-code customer list", §3 Referral code,
 * §4 referral cash-out). A referrer's code is given to a buyer (the referee); when the referee
 * claims it with the serial number of the device they bought, a cash-back is owed to both, paid by
 * bank transfer to an Australian account (BSB and account number).
 */

/** Spec §4: 0 not cashed out, 1 cashed out (the catalogue enumeration `referralCashOut`). */
export const CASH_OUT_STATES = { notCashedOut: 0, cashedOut: 1 } as const;
export type CashOutState = (typeof CASH_OUT_STATES)[keyof typeof CASH_OUT_STATES];

/** A BSB (bank-state-branch number): six digits, often written 062-000 or 062 000. */
export function normaliseBsb(value: string): string | null {
  const digits = value.trim().replace(/[\s-]/g, "");
  return /^[0-9]{6}$/.test(digits) ? digits : null;
}

/** An Australian account number: 5 to 10 digits (banks use 6 to 10; some older accounts fewer). */
export function normaliseAccountNumber(value: string): string | null {
  const digits = value.trim().replace(/[\s-]/g, "");
  return /^[0-9]{5,10}$/.test(digits) ? digits : null;
}

/** The account name as the bank holds it: 1 to 64 characters. */
export const ACCOUNT_NAME_MAX = 64;

/** Referral codes: eight characters of an alphabet without look-alikes (0/O, 1/I/L). */
export const REFERRAL_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
export const REFERRAL_CODE_LENGTH = 8;
export function isReferralCode(value: string): boolean {
  return value.length === REFERRAL_CODE_LENGTH && [...value].every((c) => REFERRAL_CODE_ALPHABET.includes(c));
}

/**
 * Bank details as a caller without the bank-details permission sees them (lists, exports, the
 * app): enough to tell accounts apart, not enough to pay into them.
 */
export const maskBsb = (bsb: string) => `***-*${bsb.slice(-2)}`;
export const maskAccountNumber = (number: string) => `${"*".repeat(Math.max(0, number.length - 3))}${number.slice(-3)}`;
export const maskAccountName = (name: string) =>
  name
    .split(/(\s+)/)
    .map((part) => (/^\s+$/.test(part) || part.length === 0 ? part : `${[...part][0]}${"*".repeat([...part].length - 1)}`))
    .join("");
export const formatBsb = (bsb: string) => `${bsb.slice(0, 3)}-${bsb.slice(3)}`;
