import { ACCOUNT_NAME_MAX, isReferralCode, normaliseAccountNumber, normaliseBsb } from "@ess/domain";
import { z } from "zod";
import { instant } from "../account-fields.ts";
import { pageOf } from "../envelope.ts";
import { blankToUndefined, listQuery, textFilter, timeFilter } from "../list.ts";
import { defineRoute } from "../route.ts";
import { text } from "../text.ts";

const cashOutState = z.union([z.literal(0), z.literal(1)]).meta({ label: "fields:cashOutState" });

/** Bank details as shown: in full to holders of `referral.bankDetails`, masked to everybody else. */
export const bankDetails = z.object({
  bsb: z.string(),
  accountNumber: z.string(),
  accountName: z.string(),
  masked: z.boolean(),
});
export type BankDetails = z.infer<typeof bankDetails>;

/** One cash-back of the referral-code customer list (spec §3 Referral code). */
export const referralCashbackRecord = z.object({
  id: z.number().int(),
  referralCode: z.string(),
  referrerAccount: z.string(),
  referrerName: z.string(),
  referrerBank: bankDetails.nullable(),
  refereeAccount: z.string(),
  refereeName: z.string(),
  refereeBank: bankDetails.nullable(),
  deviceSn: z.string(),
  cashOutState: z.number().int(),
  cashOutTime: instant.nullable(),
  createTime: instant,
});
export type ReferralCashbackRecord = z.infer<typeof referralCashbackRecord>;

const referralFilters = {
  code: textFilter.meta({ label: "fields:referralCode" }),
  account: textFilter.meta({ label: "fields:referralAccount" }),
  sn: textFilter.meta({ label: "fields:deviceSn" }),
  cashOutState: z.preprocess(
    (v) => (typeof v === "string" && v !== "" ? Number(v) : blankToUndefined(v)),
    cashOutState.optional(),
  ),
  from: timeFilter,
  to: timeFilter,
};
const referralListQuery = listQuery(["createTime", "cashOutTime"], referralFilters);

const bsb = text()
  .trim()
  .max(16)
  .refine((v) => normaliseBsb(v) !== null, { message: "validation:bsb" })
  .meta({ label: "fields:bsb" });
const accountNumber = text()
  .trim()
  .max(24)
  .refine((v) => normaliseAccountNumber(v) !== null, { message: "validation:bankAccountNumber" })
  .meta({ label: "fields:bankAccountNumber" });
const accountName = text().trim().min(1).max(ACCOUNT_NAME_MAX).meta({ label: "fields:bankAccountName" });

export const bankDetailsInput = z.object({ bsb, accountNumber, accountName });

/** The caller's referral account: no code until they join by giving the bank account to pay. */
export const referralAccountAnswer = z.object({
  code: z.string().nullable(),
  bank: bankDetails.nullable(),
});

const BANK_SECRETS = ["bsb", "accountNumber", "accountName"] as const;

export const referralRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/aus/referral/ausReferralCashback/list",
    summary:
      "Referral cash-backs: referrer and referee with their bank details (masked without referral.bankDetails), device, cash-out state",
    tags: ["referrals"],
    access: { permission: "referral.view" },
    query: referralListQuery,
    data: pageOf(referralCashbackRecord),
    scope: { entity: "referral", refs: [] },
    demo: "hidden",
  }),
  export: defineRoute({
    method: "GET",
    path: "/aus/referral/ausReferralCashback/export",
    summary: "The same list as an Excel workbook in the caller's language (bank details masked without referral.bankDetails)",
    tags: ["referrals"],
    access: { permission: "referral.export" },
    query: referralListQuery.omit({ current: true, size: true }),
    data: z.string().describe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
    raw: true,
    scope: { entity: "referral", refs: [] },
    demo: "hidden",
  }),
  modify: defineRoute({
    method: "POST",
    path: "/aus/referral/ausReferralCashback/modify",
    summary: "Mark a cash-back cashed out (1) or not (0); the console asks for a confirmation first",
    tags: ["referrals"],
    access: { permission: "referral.cashOut" },
    body: z.object({
      referralCashbackId: z.number().int().min(1).meta({ label: "fields:referralCashback" }),
      cashOutState,
    }),
    data: referralCashbackRecord,
    scope: { entity: "referral", refs: [{ in: "body", field: "referralCashbackId", entity: "referral" }] },
  }),
  /** The app's side: an end user's own code and bank details, claims and cash-backs. */
  account: defineRoute({
    method: "GET",
    path: "/app/referral/account",
    summary: "The caller's referral code and bank details (masked); no code before bank details are given",
    tags: ["app"],
    access: { signedIn: true },
    data: referralAccountAnswer,
    scope: { entity: "self" },
  }),
  saveBank: defineRoute({
    method: "POST",
    path: "/app/referral/bank",
    summary:
      "Join the referral programme or change the bank account cash-backs are paid into (an end user's; sealed at rest, masked in the operation log)",
    tags: ["app"],
    access: { signedIn: true },
    body: bankDetailsInput,
    data: referralAccountAnswer,
    scope: { entity: "self" },
    secrets: BANK_SECRETS,
  }),
  claim: defineRoute({
    method: "POST",
    path: "/app/referral/claim",
    summary: "Claim a referrer's code for a device the caller owns; one claim per device",
    tags: ["app"],
    access: { signedIn: true },
    body: z.object({
      code: text()
        .trim()
        .transform((v) => v.toUpperCase())
        .refine(isReferralCode, { message: "referrals:codeUnknown" })
        .meta({ label: "fields:referralCode" }),
      deviceSn: text().trim().min(1).max(64).meta({ label: "fields:deviceSn" }),
    }),
    data: referralCashbackRecord,
    scope: { entity: "self" },
  }),
  mine: defineRoute({
    method: "GET",
    path: "/app/referral/cashbacks",
    summary: "The caller's cash-backs, as referrer or referee (the other party's bank details masked)",
    tags: ["app"],
    access: { signedIn: true },
    data: z.array(referralCashbackRecord),
    scope: { entity: "self" },
  }),
} as const;
