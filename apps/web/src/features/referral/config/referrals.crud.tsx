import type { BankDetails, ReferralCashbackRecord } from "@ess/contracts";
import { CASH_OUT_STATES } from "@ess/domain";
import { Tooltip, Typography } from "antd";
import type { TFunction } from "i18next";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { defineCrud } from "../../../ui/crud/index.ts";

const cashOutOptions = { values: [CASH_OUT_STATES.notCashedOut, CASH_OUT_STATES.cashedOut], labelKey: "enums:referralCashOut" };
const cashedOut = (r: ReferralCashbackRecord) => r.cashOutState === CASH_OUT_STATES.cashedOut;

/** BSB, account number and name on three short lines; masked values say why they are masked. */
function bank(details: BankDetails | null, t: TFunction) {
  if (!details) return <Typography.Text type="secondary">{t("referrals:noBank")}</Typography.Text>;
  const lines = (
    <span style={{ whiteSpace: "pre-line" }}>{`${details.bsb}\n${details.accountNumber}\n${details.accountName}`}</span>
  );
  return details.masked ? <Tooltip title={t("referrals:masked")}>{lines}</Tooltip> : lines;
}

/**
 * The referral-code customer list (spec §2): who referred whom for which device, both parties'
 * bank accounts (masked without the bank-details permission) and whether the cash-back was paid.
 * Changing the cash-out state asks first (spec §8) and is written to the operation log.
 */
export const referralsCrud = defineCrud<ReferralCashbackRecord>({
  id: "referrals",
  ns: ["referrals"],
  list: API.referral.list,
  filters: [
    { name: "code", label: "fields:referralCode" },
    { name: "account", label: "fields:referralAccount" },
    { name: "sn", label: "fields:deviceSn" },
    { name: "cashOutState", label: "fields:cashOutState", kind: "select", options: cashOutOptions },
    { name: "time", kind: "dateRange", range: ["from", "to"], label: "referrals:columns.createTime" },
  ],
  columns: [
    { key: "referralCode", title: "referrals:columns.referralCode" },
    {
      key: "referrerAccount",
      title: "referrals:columns.referrer",
      render: (r) => `${r.referrerAccount}${r.referrerName ? ` (${r.referrerName})` : ""}`,
    },
    { key: "referrerBank", title: "referrals:columns.bank", render: (r, t) => bank(r.referrerBank, t) },
    {
      key: "refereeAccount",
      title: "referrals:columns.referee",
      render: (r) => `${r.refereeAccount}${r.refereeName ? ` (${r.refereeName})` : ""}`,
    },
    { key: "refereeBank", title: "referrals:columns.bank", render: (r, t) => bank(r.refereeBank, t) },
    { key: "deviceSn", title: "referrals:columns.deviceSn" },
    { key: "cashOutState", title: "referrals:columns.cashOutState", options: cashOutOptions },
    { key: "cashOutTime", title: "referrals:columns.cashOutTime", kind: "time", sortable: true },
    { key: "createTime", title: "referrals:columns.createTime", kind: "time", sortable: true },
  ],
  actions: [
    {
      key: "cashOut",
      label: (r) => (cashedOut(r) ? "referrals:actions.markNotCashedOut" : "referrals:actions.markCashedOut"),
      permission: "referral.cashOut",
      confirm: (r) => (cashedOut(r) ? "referrals:confirm.notCashedOut" : "referrals:confirm.cashedOut"),
      danger: false,
      success: "referrals:changed",
      run: (r) =>
        call(API.referral.modify, {
          body: {
            referralCashbackId: r.id,
            cashOutState: cashedOut(r) ? CASH_OUT_STATES.notCashedOut : CASH_OUT_STATES.cashedOut,
          },
        }),
    },
  ],
  export: { route: API.referral.export, permission: "referral.export", fileName: "referral-cashbacks.xlsx" },
});
