import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createAccount } from "../helpers/accounts.ts";
import { apiCaller } from "../helpers/api-caller.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { createTestApp, signIn, type TestApp } from "../helpers/test-app.ts";

/**
 * Referral cash-back: end users join with their bank account and claim codes for their devices in
 * the app; staff list and export the cash-backs (bank details masked without the dedicated
 * permission) and mark them cashed out.
 */
let t: TestApp;
let admin: string;
let referrer: string;
let referee: string;
let viewer: string;
let deviceSn: string;
const as = (token: () => string) => apiCaller(() => t.app, token);

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app);
  await createAccount(t.db, { username: "alice", userType: 2, roles: ["END_USER"] });
  await createAccount(t.db, { username: "bruno", userType: 2, roles: ["END_USER"] });
  referrer = await signIn(t.app, "alice", "Passw0rd1");
  referee = await signIn(t.app, "bruno", "Passw0rd1");
  // Back-office staff who may see the list but not the bank details.
  await t.db.query("INSERT INTO sys_role (tenant_id, code, name, user_type) VALUES (1, 'REFERRAL_CLERK', 'Clerk', 0)");
  await t.db.query(
    "INSERT INTO sys_role_permission (role_id, permission) SELECT id, p FROM sys_role, unnest(ARRAY['referral.view', 'referral.export']) p WHERE code = 'REFERRAL_CLERK'",
  );
  await createAccount(t.db, { username: "clerk", roles: ["REFERRAL_CLERK"] });
  viewer = await signIn(t.app, "clerk", "Passw0rd1");
  const device = await registerDevice(t.db, { sn: uniqueSerial("REF") });
  deviceSn = device.sn;
  const bruno = (await t.db.query<{ id: number }>("SELECT id FROM sys_user WHERE username = 'bruno'")).rows[0]?.id;
  await t.db.query("UPDATE device SET owner_user_id = $1 WHERE id = $2", [bruno, device.id]);
}, 60_000);
afterAll(() => t.close());

describe("referral cash-back", () => {
  let code: string;
  let cashbackId: number;

  it("seals the bank details: the stored columns and the operation log hold none of them", async () => {
    const answer = await as(() => referrer)<{ code: string; bank: { bsb: string; accountNumber: string; masked: boolean } }>(
      "POST",
      "/app/referral/bank",
      { bsb: "062-000", accountNumber: "1234 5678", accountName: "Alice Citizen" },
    );
    expect(answer.status).toBe(200);
    code = answer.body.data.code;
    expect(code).toMatch(/^[2-9A-Z]{8}$/);
    expect(answer.body.data.bank).toMatchObject({ bsb: "***-*00", accountNumber: "*****678", masked: true });

    const raw = (await t.db.query("SELECT * FROM referral_account WHERE code = $1", [code])).rows[0] as Record<string, unknown>;
    const stored = JSON.stringify(raw);
    for (const secret of ["062000", "062-000", "12345678", "Alice Citizen"]) expect(stored).not.toContain(secret);
    expect(String(raw.bank_bsb)).toMatch(/^v1\./);
    const log = JSON.stringify((await t.db.query("SELECT params FROM sys_log WHERE operation = 'referral.saveBank'")).rows);
    expect(log).toContain("accountName");
    for (const secret of ["062-000", "1234 5678", "Alice Citizen"]) expect(log).not.toContain(secret);
  });

  it("refuses a BSB or account number that is not one, naming the field, and changes nothing", async () => {
    const before = (await t.db.query("SELECT bank_bsb FROM referral_account WHERE code = $1", [code])).rows[0];
    const r = await as(() => referrer)(
      "POST",
      "/app/referral/bank",
      { bsb: "62-000", accountNumber: "12", accountName: "A" },
      {
        language: "it",
      },
    );
    expect(r.status).toBe(400);
    expect(r.body.msg).toContain("BSB deve essere di sei cifre");
    expect(r.body.msg).toContain("Numero di conto deve essere di 5-10 cifre");
    expect((await t.db.query("SELECT bank_bsb FROM referral_account WHERE code = $1", [code])).rows[0]).toEqual(before);
  });

  it("lets the referee claim the code once for a device of their own", async () => {
    const ownCode = await as(() => referrer)("POST", "/app/referral/claim", { code, deviceSn });
    expect(ownCode.status).toBe(400);
    expect(ownCode.body.msg).toContain("You cannot use your own referral code");

    const unknown = await as(() => referee)("POST", "/app/referral/claim", { code: "ZZZZZZZZ", deviceSn });
    expect(unknown.body.msg).toContain("No referral code like this exists");
    const notTheirs = await as(() => referee)("POST", "/app/referral/claim", { code, deviceSn: "NOT-A-DEVICE" });
    expect(notTheirs.body.msg).toContain("No device of yours has this serial number");

    const claimed = await as(() => referee)<{ id: number; referralCode: string; cashOutState: number }>(
      "POST",
      "/app/referral/claim",
      { code: code.toLowerCase(), deviceSn },
    );
    expect(claimed.status).toBe(200);
    expect(claimed.body.data).toMatchObject({ referralCode: code, cashOutState: 0 });
    cashbackId = claimed.body.data.id;

    const again = await as(() => referee)("POST", "/app/referral/claim", { code, deviceSn }, { language: "es" });
    expect(again.status).toBe(400);
    expect(again.body.msg).toContain("Ya se ha usado un código de referido para este dispositivo");
    const mine = await as(() => referrer)<{ id: number }[]>("GET", "/app/referral/cashbacks");
    expect(mine.body.data.map((c) => c.id)).toEqual([cashbackId]);
  });

  it("shows staff the bank details in full only with the bank-details permission, in the list and the export", async () => {
    type Row = { referrerBank: { bsb: string; accountNumber: string; accountName: string; masked: boolean } | null };
    const full = await as(() => admin)<{ records: Row[] }>("GET", "/aus/referral/ausReferralCashback/list");
    expect(full.body.data.records[0]?.referrerBank).toEqual({
      bsb: "062-000",
      accountNumber: "12345678",
      accountName: "Alice Citizen",
      masked: false,
    });
    const masked = await as(() => viewer)<{ records: Row[] }>("GET", "/aus/referral/ausReferralCashback/list");
    expect(masked.body.data.records[0]?.referrerBank).toEqual({
      bsb: "***-*00",
      accountNumber: "*****678",
      accountName: "A**** C******",
      masked: true,
    });

    const exported = await t.app.inject({
      method: "GET",
      url: "/aus/referral/ausReferralCashback/export",
      headers: { ...bearer(viewer), "accept-language": "en-US" },
    });
    expect(exported.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const cells = JSON.stringify(book.worksheets[0]?.getSheetValues());
    expect(cells).toContain("*****678");
    expect(cells).toContain("Not cashed out");
    expect(cells).not.toContain("12345678");
    expect(cells).not.toContain("Alice Citizen");

    const refused = await as(() => viewer)("POST", "/aus/referral/ausReferralCashback/modify", {
      referralCashbackId: cashbackId,
      cashOutState: 1,
    });
    expect(refused.status).toBe(403);
  });

  it("marks a cash-back cashed out with its date and an operation-log line, and refuses a state that does not exist", async () => {
    const bad = await as(() => admin)("POST", "/aus/referral/ausReferralCashback/modify", {
      referralCashbackId: cashbackId,
      cashOutState: 2,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain("Cash-out state");

    const done = await as(() => admin)<{ cashOutState: number; cashOutTime: string | null }>(
      "POST",
      "/aus/referral/ausReferralCashback/modify",
      { referralCashbackId: cashbackId, cashOutState: 1 },
    );
    expect(done.status).toBe(200);
    expect(done.body.data.cashOutState).toBe(1);
    expect(Date.now() - Date.parse(done.body.data.cashOutTime as string)).toBeLessThan(60_000);
    // The clerk's refusal, the wrong state and the change: each has its line.
    const lines = await t.db.query("SELECT status FROM sys_log WHERE operation = 'referral.modify' ORDER BY id");
    expect(lines.rows).toEqual([{ status: 403 }, { status: 400 }, { status: 200 }]);

    const filtered = await as(() => admin)<{ total: number }>("GET", "/aus/referral/ausReferralCashback/list?cashOutState=0");
    expect(filtered.body.data.total).toBe(0);
    // A part of the device's serial number finds its cash-back, in any case; another serial none.
    const bySn = await as(() => admin)<{ total: number }>(
      "GET",
      `/aus/referral/ausReferralCashback/list?sn=${deviceSn.slice(3, 9).toLowerCase()}`,
    );
    expect(bySn.body.data.total).toBe(1);
    const otherSn = await as(() => admin)<{ total: number }>("GET", "/aus/referral/ausReferralCashback/list?sn=NOSUCHSERIAL");
    expect(otherSn.body.data.total).toBe(0);
    const missing = await as(() => admin)("POST", "/aus/referral/ausReferralCashback/modify", {
      referralCashbackId: cashbackId + 1000,
      cashOutState: 1,
    });
    expect(missing.status).toBe(404);
  });

  it("keeps staff accounts out of the app's side of the programme", async () => {
    const r = await as(() => admin)("GET", "/app/referral/account");
    expect(r.status).toBe(403);
    expect(r.body.msg).toBe("Only end users take part in referral cash-back");
  });
});
