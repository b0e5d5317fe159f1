import { randomInt } from "node:crypto";
import type { BankDetails, ReferralCashbackRecord } from "@ess/contracts";
import {
  formatBsb,
  maskAccountName,
  maskAccountNumber,
  maskBsb,
  REFERRAL_CODE_ALPHABET,
  REFERRAL_CODE_LENGTH,
} from "@ess/domain";
import type { FieldCipher } from "../../crypto/field-cipher.ts";
import { type Sql, sql } from "../../db/sql.ts";

/** The sealed columns, named as the cipher's additional data so a value cannot change columns. */
export const BANK_COLUMNS = {
  bsb: "referral_account.bank_bsb",
  accountNumber: "referral_account.bank_account_number",
  accountName: "referral_account.bank_account_name",
} as const;

export interface SealedBank {
  bank_bsb: string | null;
  bank_account_number: string | null;
  bank_account_name: string | null;
}

export function sealBank(cipher: FieldCipher, bank: { bsb: string; accountNumber: string; accountName: string }) {
  return {
    bsb: cipher.seal(bank.bsb, BANK_COLUMNS.bsb),
    accountNumber: cipher.seal(bank.accountNumber, BANK_COLUMNS.accountNumber),
    accountName: cipher.seal(bank.accountName, BANK_COLUMNS.accountName),
  };
}

/** Bank details opened, in full or masked; null when none were given. */
export function openBank(cipher: FieldCipher, row: SealedBank, full: boolean): BankDetails | null {
  if (!row.bank_bsb || !row.bank_account_number || !row.bank_account_name) return null;
  const bsb = cipher.open(row.bank_bsb, BANK_COLUMNS.bsb);
  const accountNumber = cipher.open(row.bank_account_number, BANK_COLUMNS.accountNumber);
  const accountName = cipher.open(row.bank_account_name, BANK_COLUMNS.accountName);
  return full
    ? { bsb: formatBsb(bsb), accountNumber, accountName, masked: false }
    : {
        bsb: maskBsb(bsb),
        accountNumber: maskAccountNumber(accountNumber),
        accountName: maskAccountName(accountName),
        masked: true,
      };
}

export const newReferralCode = () =>
  Array.from({ length: REFERRAL_CODE_LENGTH }, () => REFERRAL_CODE_ALPHABET[randomInt(REFERRAL_CODE_ALPHABET.length)]).join("");

export interface CashbackRow {
  id: number;
  code: string;
  referrer_account: string;
  referrer_name: string;
  referrer_bsb: string | null;
  referrer_number: string | null;
  referrer_holder: string | null;
  referee_account: string;
  referee_name: string;
  referee_bsb: string | null;
  referee_number: string | null;
  referee_holder: string | null;
  device_sn: string;
  cash_out_state: number;
  cash_out_at: Date | null;
  created_at: Date;
}

export const CASHBACK_SELECT = sql.raw(`c.id, ra.code, ru.username AS referrer_account, ru.name AS referrer_name,
  ra.bank_bsb AS referrer_bsb, ra.bank_account_number AS referrer_number,
  ra.bank_account_name AS referrer_holder, eu.username AS referee_account, eu.name AS referee_name,
  ea.bank_bsb AS referee_bsb, ea.bank_account_number AS referee_number,
  ea.bank_account_name AS referee_holder, d.sn AS device_sn, c.cash_out_state, c.cash_out_at, c.created_at`);

/**
 * Left joins although every one of them always matches (foreign keys): PostgreSQL leaves out a
 * left join to a unique key that nothing reads, so counting an unfiltered list reads the
 * cash-backs alone instead of joining five tables for every row.
 */
export const CASHBACK_FROM = sql.raw(`referral_cashback c
  LEFT JOIN referral_account ra ON ra.id = c.referrer_account_id LEFT JOIN sys_user ru ON ru.id = ra.user_id
  LEFT JOIN referral_account ea ON ea.id = c.referee_account_id LEFT JOIN sys_user eu ON eu.id = ea.user_id
  LEFT JOIN device d ON d.id = c.device_id`);

export const CASHBACK_SORT = { id: "c.id", createTime: "c.created_at", cashOutTime: "c.cash_out_at" } as const;

export interface CashbackFilters {
  code?: string | undefined;
  account?: string | undefined;
  sn?: string | undefined;
  cashOutState?: 0 | 1 | undefined;
  from?: Date | string | undefined;
  to?: Date | string | undefined;
}

const like = (value: string) => `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The list's conditions: the caller's scope, then each filter given. */
export function cashbackWhere(scope: Sql, f: CashbackFilters): Sql {
  const parts: Sql[] = [scope];
  if (f.code) parts.push(sql`ra.code ILIKE ${like(f.code)}`);
  if (f.account) {
    const pattern = like(f.account);
    parts.push(
      sql`(ru.username ILIKE ${pattern} OR eu.username ILIKE ${pattern} OR ru.name ILIKE ${pattern} OR eu.name ILIKE ${pattern})`,
    );
  }
  // Through the devices' trigram index (fleet devices), not a join of every cash-back's device.
  if (f.sn) parts.push(sql`c.device_id IN (SELECT id FROM device WHERE deleted_at IS NULL AND sn ILIKE ${like(f.sn)})`);
  if (f.cashOutState !== undefined) parts.push(sql`c.cash_out_state = ${f.cashOutState}`);
  if (f.from) parts.push(sql`c.created_at >= ${f.from}`);
  if (f.to) parts.push(sql`c.created_at <= ${f.to}`);
  return sql.join(parts, " AND ");
}

/** A cash-back as a caller sees it: bank details in full with `full`, otherwise masked. */
export function toCashbackRecord(cipher: FieldCipher, full: boolean) {
  return (r: CashbackRow): ReferralCashbackRecord => ({
    id: r.id,
    referralCode: r.code,
    referrerAccount: r.referrer_account,
    referrerName: r.referrer_name,
    referrerBank: openBank(
      cipher,
      { bank_bsb: r.referrer_bsb, bank_account_number: r.referrer_number, bank_account_name: r.referrer_holder },
      full,
    ),
    refereeAccount: r.referee_account,
    refereeName: r.referee_name,
    refereeBank: openBank(
      cipher,
      { bank_bsb: r.referee_bsb, bank_account_number: r.referee_number, bank_account_name: r.referee_holder },
      full,
    ),
    deviceSn: r.device_sn,
    cashOutState: r.cash_out_state,
    cashOutTime: r.cash_out_at?.toISOString() ?? null,
    createTime: r.created_at.toISOString(),
  });
}
