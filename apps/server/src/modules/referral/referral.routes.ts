import { API } from "@ess/contracts";
import { normaliseAccountNumber, normaliseBsb, USER_TYPES } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import type { FieldCipher } from "../../crypto/field-cipher.ts";
import type { Db, Queryable, Tx } from "../../db/db.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { first, run, sql } from "../../db/sql.ts";
import { forbidden, notFound, ValidationError } from "../../http/errors.ts";
import { fetchPage, LIST_COUNT_AT_MOST, orderBy } from "../../http/paging.ts";
import { bindRoute } from "../../http/route.ts";
import { writeWorkbook, XLSX_TYPE } from "../../workbooks/workbooks.ts";
import type { AuthContext } from "../auth/auth.context.ts";
import { dataScope } from "../scope/data-scope.ts";
import {
  CASHBACK_FROM,
  CASHBACK_SELECT,
  CASHBACK_SORT,
  type CashbackRow,
  cashbackWhere,
  newReferralCode,
  openBank,
  type SealedBank,
  sealBank,
  toCashbackRecord,
} from "./referral.repository.ts";

const EXPORT_LIMIT = 10_000;
const refusal = (field: string, key: string, label: string) => new ValidationError([{ field, key, values: {}, label }]);
const EXPORT_COLUMNS = [
  "id",
  "referralCode",
  "referrerAccount",
  "referrerName",
  "referrerBsb",
  "referrerAccountNumber",
  "referrerAccountName",
  "refereeAccount",
  "refereeName",
  "refereeBsb",
  "refereeAccountNumber",
  "refereeAccountName",
  "deviceSn",
  "cashOutState",
  "cashOutTime",
  "createTime",
] as const;

/** Referral cash-back: the staff's list, export and cash-out, and the end user's side in the app. */
export function registerReferralRoutes(app: FastifyInstance, deps: { db: Db; cipher: FieldCipher }) {
  const { db, cipher } = deps;
  const seesBank = (auth: AuthContext) => auth.permissions.has("referral.bankDetails");

  bindRoute(app, API.referral.list, async ({ auth, input }) =>
    fetchPage<CashbackRow, ReturnType<ReturnType<typeof toCashbackRecord>>>(
      db,
      {
        select: CASHBACK_SELECT,
        from: CASHBACK_FROM,
        where: cashbackWhere(dataScope(auth).referrals("c"), input.query),
        order: orderBy(input.query, CASHBACK_SORT, "c.created_at"),
        countAtMost: LIST_COUNT_AT_MOST,
      },
      input.query,
      toCashbackRecord(cipher, seesBank(auth)),
    ),
  );

  bindRoute(app, API.referral.export, async ({ auth, input, reply, request }) => {
    const { rows } = await run<CashbackRow>(
      db,
      sql`SELECT ${CASHBACK_SELECT} FROM ${CASHBACK_FROM} WHERE ${cashbackWhere(dataScope(auth).referrals("c"), input.query)}
          ${orderBy(input.query, CASHBACK_SORT, "c.created_at")} LIMIT ${EXPORT_LIMIT}`,
    );
    const t = request.t;
    const records = rows.map(toCashbackRecord(cipher, seesBank(auth)));
    const file = await writeWorkbook(
      t("referrals:exportSheet"),
      EXPORT_COLUMNS.map((c) => t(`referrals:columns.${c}`)),
      records.map((r) => [
        r.id,
        r.referralCode,
        r.referrerAccount,
        r.referrerName,
        r.referrerBank?.bsb ?? "",
        r.referrerBank?.accountNumber ?? "",
        r.referrerBank?.accountName ?? "",
        r.refereeAccount,
        r.refereeName,
        r.refereeBank?.bsb ?? "",
        r.refereeBank?.accountNumber ?? "",
        r.refereeBank?.accountName ?? "",
        r.deviceSn,
        t(`enums:referralCashOut.${r.cashOutState}`),
        r.cashOutTime ?? "",
        r.createTime,
      ]),
    );
    reply.type(XLSX_TYPE).header("content-disposition", 'attachment; filename="referral-cashbacks.xlsx"').send(file);
    return "";
  });

  bindRoute(app, API.referral.modify, async ({ auth, input }) => {
    const { referralCashbackId, cashOutState } = input.body;
    const row = await db.transaction(async (tx) => {
      const changed = await first<{ id: number }>(
        tx,
        sql`UPDATE referral_cashback c
               SET cash_out_state = ${cashOutState},
                   cash_out_at = CASE WHEN ${cashOutState}::int = 1 THEN coalesce(c.cash_out_at, now()) END,
                   updated_at = now()
             WHERE c.id = ${referralCashbackId} AND ${dataScope(auth).referrals("c")}
             RETURNING c.id`,
      );
      if (!changed) throw notFound();
      return first<CashbackRow>(tx, sql`SELECT ${CASHBACK_SELECT} FROM ${CASHBACK_FROM} WHERE c.id = ${changed.id}`);
    });
    if (!row) throw notFound();
    return toCashbackRecord(cipher, seesBank(auth))(row);
  });

  // The app's side: only end users take part in the programme.
  const endUser = (auth: AuthContext) => {
    if (auth.userType !== USER_TYPES.user) throw forbidden("referrals:endUsersOnly");
  };
  const accountAnswer = async (q: Queryable, auth: AuthContext) => {
    const row = await first<SealedBank & { code: string }>(
      q,
      sql`SELECT code, bank_bsb, bank_account_number, bank_account_name FROM referral_account WHERE user_id = ${auth.userId}`,
    );
    return { code: row?.code ?? null, bank: row ? openBank(cipher, row, false) : null };
  };
  /**
   * The caller's account id, made with a fresh code. A code already taken (one chance in about
   * 10^11 per account) is drawn again, each attempt behind a savepoint so the collision does not
   * abort the request's transaction.
   */
  const ensureAccount = async (tx: Tx, auth: AuthContext, bank: ReturnType<typeof sealBank> | null) => {
    for (let attempt = 0; ; attempt++) {
      await tx.query("SAVEPOINT referral_code");
      try {
        const row = await first<{ id: number }>(
          tx,
          bank
            ? sql`INSERT INTO referral_account (tenant_id, user_id, code, bank_bsb, bank_account_number, bank_account_name)
                  VALUES (${auth.tenantId}, ${auth.userId}, ${newReferralCode()}, ${bank.bsb}, ${bank.accountNumber}, ${bank.accountName})
                  ON CONFLICT (user_id) DO UPDATE SET bank_bsb = EXCLUDED.bank_bsb,
                    bank_account_number = EXCLUDED.bank_account_number, bank_account_name = EXCLUDED.bank_account_name,
                    updated_at = now()
                  RETURNING id`
            : sql`INSERT INTO referral_account (tenant_id, user_id, code) VALUES (${auth.tenantId}, ${auth.userId}, ${newReferralCode()})
                  ON CONFLICT (user_id) DO UPDATE SET user_id = EXCLUDED.user_id RETURNING id`,
        );
        await tx.query("RELEASE SAVEPOINT referral_code");
        return (row as { id: number }).id;
      } catch (error) {
        // Only the code can collide here (the user's own row is the ON CONFLICT target).
        if (!isUniqueViolation(error) || attempt >= 5) throw error;
        await tx.query("ROLLBACK TO SAVEPOINT referral_code");
      }
    }
  };

  bindRoute(app, API.referral.account, async ({ auth }) => {
    endUser(auth);
    return accountAnswer(db, auth);
  });

  bindRoute(app, API.referral.saveBank, async ({ auth, input }) => {
    endUser(auth);
    const bank = sealBank(cipher, {
      bsb: normaliseBsb(input.body.bsb) as string,
      accountNumber: normaliseAccountNumber(input.body.accountNumber) as string,
      accountName: input.body.accountName,
    });
    return db.transaction(async (tx) => {
      await ensureAccount(tx, auth, bank);
      return accountAnswer(tx, auth);
    });
  });

  bindRoute(app, API.referral.claim, async ({ auth, input }) => {
    endUser(auth);
    const { code, deviceSn } = input.body;
    const referrer = await first<{ id: number; user_id: number }>(
      db,
      sql`SELECT id, user_id FROM referral_account WHERE tenant_id = ${auth.tenantId} AND code = ${code}`,
    );
    if (!referrer) throw refusal("code", "referrals:codeUnknown", "fields:referralCode");
    if (referrer.user_id === auth.userId || referrer.user_id === auth.parentUserId)
      throw refusal("code", "referrals:ownCode", "fields:referralCode");
    const device = await first<{ id: number }>(
      db,
      sql`SELECT d.id FROM device d WHERE d.sn = ${deviceSn} AND d.deleted_at IS NULL AND ${dataScope(auth).devices("d")}`,
    );
    if (!device) throw refusal("deviceSn", "referrals:deviceNotYours", "fields:deviceSn");
    const row = await db.transaction(async (tx) => {
      const refereeAccountId = await ensureAccount(tx, auth, null);
      const made = await first<{ id: number }>(
        tx,
        sql`INSERT INTO referral_cashback (tenant_id, referrer_account_id, referee_account_id, device_id)
            VALUES (${auth.tenantId}, ${referrer.id}, ${refereeAccountId}, ${device.id})
            ON CONFLICT (device_id) DO NOTHING RETURNING id`,
      );
      if (!made) throw refusal("deviceSn", "referrals:deviceClaimed", "fields:deviceSn");
      return first<CashbackRow>(tx, sql`SELECT ${CASHBACK_SELECT} FROM ${CASHBACK_FROM} WHERE c.id = ${made.id}`);
    });
    if (!row) throw notFound();
    return toCashbackRecord(cipher, false)(row);
  });

  bindRoute(app, API.referral.mine, async ({ auth }) => {
    endUser(auth);
    const { rows } = await run<CashbackRow>(
      db,
      sql`SELECT ${CASHBACK_SELECT} FROM ${CASHBACK_FROM}
           WHERE c.tenant_id = ${auth.tenantId} AND (ra.user_id = ${auth.userId} OR ea.user_id = ${auth.userId})
           ORDER BY c.created_at DESC, c.id DESC LIMIT 500`,
    );
    return rows.map(toCashbackRecord(cipher, false));
  });
}
