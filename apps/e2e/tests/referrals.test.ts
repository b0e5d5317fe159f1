import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchBrowser, screenshot } from "../src/browser.ts";
import { crudScreen } from "../src/crud-screen.ts";
import { signIn, startShellConsole } from "../src/shell-fixture.ts";

const SN = "ESSREF0001";

/**
 * The referral-code customer list: a cash-back claimed in the app shows with both parties' bank
 * details, and staff mark it cashed out (and back) only after confirming, in two languages.
 */
describe.skipIf(!CHROMIUM)("referral cash-back in Chromium", () => {
  let browser: Browser;
  let console_: Awaited<ReturnType<typeof startShellConsole>>;
  const db = () => console_.runtime.db;
  const stateInDb = async () => (await db().query<{ s: number }>("SELECT cash_out_state AS s FROM referral_cashback")).rows[0]?.s;

  /** An end user as the app would be: signed in through the API. */
  const appUser = async (username: string) => {
    await console_.asAdmin("POST", "/admin/lsyuser/save", { username, password: "Refer2025x", name: username });
    await db().query("UPDATE sys_user SET must_change_password = false WHERE username = $1", [username]);
    const token = await console_.tokenFor(username, "Refer2025x");
    return async (url: string, payload: object) => {
      const r = await console_.runtime.app.inject({
        method: "POST",
        url,
        payload,
        headers: { authorization: `Bearer ${token}` },
      });
      if (r.statusCode !== 200) throw new Error(`${url}: ${r.body}`);
      return (r.json() as { data: Record<string, unknown> }).data;
    };
  };

  beforeAll(async () => {
    console_ = await startShellConsole();
    const alice = await appUser("alice");
    const bruno = await appUser("bruno");
    const { code } = await alice("/app/referral/bank", {
      bsb: "062-000",
      accountNumber: "12345678",
      accountName: "Alice Citizen",
    });
    await bruno("/app/referral/bank", { bsb: "733 000", accountNumber: "987654", accountName: "Bruno Rossi" });
    await db().query(
      "INSERT INTO device (tenant_id, sn, name, owner_user_id) SELECT 1, $1, 'Garage', id FROM sys_user WHERE username = 'bruno'",
      [SN],
    );
    await bruno("/app/referral/claim", { code: code as string, deviceSn: SN });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await console_?.stop();
  });

  const open = async (locale: string): Promise<Page> => {
    const page = await browser.newPage({ locale, timezoneId: "Australia/Sydney", viewport: { width: 1500, height: 900 } });
    await signIn(page, console_.url);
    return page;
  };

  it.each([
    ["en-US", "Mark cashed out", "Mark this cash-back as cashed out?", "Cashed out", 1],
    ["zh-CN", "标记为未提现", "确认将该返现改回未提现？", "未提现", 0],
  ] as const)(
    "in %s, changes the cash-out state only after the confirmation",
    async (locale, action, question, shown, stored) => {
      const page = await open(locale);
      const list = crudScreen(page, "referrals");
      await list.open(console_.url, "/aus/referral/index");
      const row = list.row(SN);
      // The administrator holds the bank-details permission: both accounts in full.
      await expect.poll(() => row.textContent()).toContain("062-000");
      expect(await row.textContent()).toContain("Bruno Rossi");
      const before = await stateInDb();

      await row.getByTestId("referrals-cashOut").click();
      await expect
        .poll(() => page.locator(".ant-modal-confirm-title, .ant-modal-confirm-content").allTextContents())
        .toEqual(expect.arrayContaining([expect.stringContaining(question)]));
      expect(await row.getByTestId("referrals-cashOut").textContent()).toContain(action);
      // Cancelling changes nothing.
      await page.locator(".ant-modal-confirm-btns button").first().click();
      await page.locator(".ant-modal-confirm").waitFor({ state: "detached" });
      expect(await stateInDb()).toBe(before);

      await row.getByTestId("referrals-cashOut").click();
      await page.locator(".ant-modal-confirm-btns button").last().click();
      await expect.poll(stateInDb).toBe(stored);
      await expect.poll(() => row.locator("td").nth(6).textContent()).toBe(shown);
      await screenshot(page, `referrals-${locale}`);
      await page.close();
    },
  );
});
