import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchBrowser, screenshot } from "../src/browser.ts";
import { signIn, startShellConsole } from "../src/shell-fixture.ts";

/** Personal information edited on /info/index: refusals while typing, the phone saved in E.164. */
describe.skipIf(!CHROMIUM)("personal information in Chromium", () => {
  let browser: Browser;
  let console_: Awaited<ReturnType<typeof startShellConsole>>;

  beforeAll(async () => {
    console_ = await startShellConsole();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await console_?.stop();
  });

  it.each([
    ["en-US", "Telephone is required", "Personal information saved", "+39 333 765 4321", "+393337654321"],
    ["ja", "電話番号は必須です", "個人情報を保存しました", "+81 90-1234-5678", "+819012345678"],
  ] as const)(
    "in %s, refuses an empty phone while typing and saves it normalised",
    async (locale, refusal, saved, typed, stored) => {
      const page = await browser.newPage({ locale, viewport: { width: 1280, height: 900 } });
      await signIn(page, console_.url);
      await page.goto(`${console_.url}#/info/index`);
      await page.getByTestId("profile-form").waitFor();
      await page.getByTestId("profile-name").fill("Ada Admin");
      await page.getByTestId("profile-phone").fill("1");
      await page.getByTestId("profile-phone").fill("");
      await expect.poll(() => page.getByTestId("profile-form").textContent()).toContain(refusal);

      await page.getByTestId("profile-gender").click();
      await page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option").nth(2).click();
      await page.getByTestId("profile-birth-date").click();
      await page.keyboard.type(locale === "ja" ? "1985/07/14" : "07/14/1985");
      await page.keyboard.press("Enter");
      await page.getByTestId("profile-phone").fill(typed);
      await page.getByTestId("profile-save").click();
      await expect.poll(() => page.getByText(saved).isVisible()).toBe(true);
      const row = await console_.runtime.db.query<{ phone: string; birth_date: string; gender: number }>(
        "SELECT phone, birth_date, gender FROM sys_user WHERE username = 'admin'",
      );
      expect(row.rows[0]).toEqual({ phone: stored, birth_date: "1985-07-14", gender: 3 });
      await page.reload();
      await expect.poll(() => page.getByTestId("profile-phone").inputValue()).toBe(stored);
      await screenshot(page, `personal-info-${locale}`);
      await page.close();
    },
  );
});
