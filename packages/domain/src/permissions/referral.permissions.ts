import type { PermissionTable } from "./system.permissions.ts";

/** Referral cash-back (spec §2 referral-code customer list). */
export const REFERRAL_PERMISSIONS = {
  "referral.view": { label: "permissions:referral.view" },
  /** Marking a cash-back paid or unpaid (after a confirmation; recorded in the operation log). */
  "referral.cashOut": { label: "permissions:referral.cashOut" },
  /** Bank details in full, in lists and exports; without it they are masked. */
  "referral.bankDetails": { label: "permissions:referral.bankDetails" },
  "referral.export": { label: "permissions:referral.export" },
} as const satisfies PermissionTable;
