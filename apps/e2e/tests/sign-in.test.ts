import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchBrowser, screenshot } from "../src/browser.ts";
import { startConsole } from "../src/console-server.ts";
import { ADMIN_PASSWORD } from "../src/shell-fixture.ts";

describe.skipIf(!CHROMIUM)("signing in to the console in Chromium", () => {
  let browser: Browser;
  let url: string;
  let stop: () => Promise<unknown>;

  beforeAll(async () => {
    // The captcha and slide verification have their own browser test (identity.test.ts).
    const started = await startConsole({ ESS_CAPTCHA: "off" });
    url = started.url;
    stop = () => started.server.stop();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stop?.();
  });

  it("opens the sign-in page, refuses a wrong password, signs in and reaches home", async () => {
    const page = await browser.newPage({ locale: "en-US" });
    await page.goto(url);
    await page.waitForURL(/#\/login$/);
    await expect.poll(() => page.getByRole("button", { name: "Sign in" }).isVisible()).toBe(true);
    await page.getByTestId("login-username").fill("admin");
    await page.getByTestId("login-password").fill("Wrong12345");
    await page.getByTestId("login-submit").click();
    await expect.poll(() => page.getByTestId("login-error").textContent()).toBe("Unknown account or wrong password");

    await page.getByTestId("login-password").fill(ADMIN_PASSWORD);
    await page.getByTestId("login-submit").click();
    await page.waitForURL(/#\/wel\/index$/);
    await expect.poll(() => page.getByTestId("home-greeting").textContent()).toBe("Hello, Administrator");
    await screenshot(page, "foundation-home-en-US");

    // The session lives in session storage: a reload keeps it; signing out ends it.
    await page.reload();
    await expect.poll(() => page.getByTestId("home-greeting").isVisible()).toBe(true);
    await page.getByTestId("user-menu").click();
    await page.getByTestId("logout-link").click();
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.waitForURL(/#\/login$/);
    await page.goto(`${url}#/wel/index`);
    await page.waitForURL(/#\/login$/);
  });

  it("speaks the chosen language and keeps it", async () => {
    const page = await browser.newPage({ locale: "ja-JP" });
    await page.goto(url);
    await expect.poll(() => page.getByRole("button", { name: "ログイン" }).isVisible()).toBe(true);
    // The page is in the console's font, not the browser's default serif.
    const font = await page.getByTestId("login-submit").evaluate(() => getComputedStyle(document.body).fontFamily);
    expect(font).toMatch(/sans-serif/);
    expect(await page.locator("h1").evaluate((h) => getComputedStyle(h).fontFamily)).toBe(font);
    // The language picker names the language and lists the five, each in its own language.
    await expect.poll(() => page.getByTestId("language-select").textContent()).toContain("日本語");
    await page.getByTestId("language-select").click();
    expect(await page.getByRole("option").allTextContents()).toEqual(["简体中文", "English", "Italiano", "Español", "日本語"]);
    await screenshot(page, "sign-in-language-picker-ja");
    await page.getByRole("option", { name: "Italiano" }).click();
    await expect.poll(() => page.getByRole("listbox").count()).toBe(0);
    await expect.poll(() => page.getByTestId("language-select").textContent()).toContain("Italiano");
    // The keyboard works it too: the list opens on the chosen language; Escape returns to the picker.
    await page.getByTestId("language-select").focus();
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Italiano");
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Español");
    await page.keyboard.press("Escape");
    await expect.poll(() => page.getByRole("listbox").count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("language-select");
    await expect.poll(() => page.getByRole("button", { name: "Accedi" }).isVisible()).toBe(true);
    await page.reload();
    await expect.poll(() => page.getByRole("button", { name: "Accedi" }).isVisible()).toBe(true);
    await page.getByTestId("login-username").fill("admin");
    await page.getByTestId("login-password").fill(ADMIN_PASSWORD);
    await page.getByTestId("login-submit").click();
    await expect.poll(() => page.getByTestId("home-greeting").textContent()).toBe("Ciao, Administrator");
  });
});
