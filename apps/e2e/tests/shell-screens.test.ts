import { gzipSync } from "node:zlib";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchBrowser, screenshot } from "../src/browser.ts";
import { sideMenuPaths } from "../src/crud-screen.ts";
import { signIn, startShellConsole } from "../src/shell-fixture.ts";

/** The sign-in route may load at most 250 KB of gzipped JavaScript. */
const LOGIN_JS_BUDGET = 250 * 1024;

const LANGUAGES = [
  { browser: "zh-CN", lang: "zh-CN", footer: "版本 3.11.0", more: "更多" },
  { browser: "en-US", lang: "en-US", footer: "Version 3.11.0", more: "More" },
  { browser: "it-IT", lang: "it", footer: "Versione 3.11.0", more: "Altro" },
  { browser: "es-ES", lang: "es", footer: "Versión 3.11.0", more: "Más" },
  { browser: "ja-JP", lang: "ja", footer: "バージョン 3.11.0", more: "その他" },
] as const;
const WIDTHS = [375, 800, 1024, 1440] as const;

describe.skipIf(!CHROMIUM)("console shell: the home layout in five languages and four widths; the sign-in page's weight", () => {
  let browser: Browser;
  let url: string;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ url, stop } = await startShellConsole());
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stop?.();
  });

  it("loads no more than 250 KB of gzipped JavaScript for the sign-in page, and nothing of the console layout", async () => {
    const context = await browser.newContext({ locale: "en-US" });
    const page = await context.newPage();
    const scripts = new Map<string, number>();
    page.on("response", async (response) => {
      if (response.request().resourceType() !== "script") return;
      const body = await response.body().catch(() => null);
      if (body) scripts.set(new URL(response.url()).pathname, gzipSync(body, { level: 9 }).length);
    });
    await page.goto(`${url}#/login`);
    await page.getByTestId("login-submit").waitFor();
    await page.waitForLoadState("networkidle");
    const total = [...scripts.values()].reduce((a, b) => a + b, 0);
    process.stdout.write(`sign-in page: ${scripts.size} scripts, ${(total / 1024).toFixed(1)} KB gzipped (budget 250 KB)\n`);
    expect(total).toBeGreaterThan(50 * 1024); // the measurement saw the bundle
    expect(total).toBeLessThanOrEqual(LOGIN_JS_BUDGET);
    expect([...scripts.keys()].filter((p) => /console-layout|stomp/.test(p))).toEqual([]);
    await context.close();
  });

  for (const language of LANGUAGES.filter((l) => l.lang === "es" || l.lang === "it")) {
    it(`shows every side-menu label whole in ${language.lang}, clear of the group arrows`, async () => {
      const context = await browser.newContext({ locale: language.browser, viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await signIn(page, url);
      await sideMenuPaths(page);
      await screenshot(page, `shell-side-menu-${language.lang}`);
      const cut = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>("[data-testid=sidebar] [data-testid^='menu:']")]
          .filter((label) => label.offsetParent !== null)
          .filter((label) => {
            const row = label.closest<HTMLElement>(".ant-menu-submenu-title, .ant-menu-item");
            const arrow = row?.querySelector<HTMLElement>(".ant-menu-submenu-arrow");
            const box = label.getBoundingClientRect();
            const clipped = label.scrollWidth > label.clientWidth + 1 || label.scrollWidth === 0;
            const end = arrow ? arrow.getBoundingClientRect().left : (row?.getBoundingClientRect().right ?? 0);
            return clipped || box.right > end + 1;
          })
          .map((label) => label.textContent),
      );
      // The labels were found (the check above is not vacuous).
      expect(await page.locator("[data-testid=sidebar] [data-testid^='menu:']").count()).toBeGreaterThan(5);
      expect(cut).toEqual([]);
      await context.close();
    });
  }

  for (const language of LANGUAGES) {
    it(`lays out home in ${language.lang} at ${WIDTHS.join(", ")} px without overflow or untranslated text`, async () => {
      const context = await browser.newContext({ locale: language.browser, viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await signIn(page, url);
      await page.goto(`${url}#/admin/log/index`);
      await page.goto(`${url}#/wel/index`);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await expect.poll(() => page.locator(".ess-shell").getAttribute("data-screen")).toBe(String(WIDTHS.indexOf(width)));
        await page.waitForTimeout(150); // let antd settle its tab overflow measurement
        await screenshot(page, `shell-home-${language.lang}-${width}`);
        const layout = await page.evaluate(() => {
          const overflowing = [
            ...document.querySelectorAll<HTMLElement>("[data-testid=top-bar], [data-testid=tab-bar], [data-testid=footer]"),
          ]
            .filter((el) => el.scrollWidth > el.clientWidth + 1)
            .map((el) => el.dataset.testid);
          return {
            page: document.documentElement.scrollWidth - window.innerWidth,
            overflowing,
            lang: document.documentElement.lang,
          };
        });
        expect(layout, `${language.lang} at ${width}`).toEqual({ page: 0, overflowing: [], lang: language.lang });
        const text = (await page.locator("body").innerText()).replace(/\s+/g, " ");
        expect(text, "an i18n key shows instead of a label").not.toMatch(/\b(shell|common|errors|auth):[a-zA-Z]/);
        expect(text).toContain(language.footer);
        expect(await page.getByTestId("tabs-more").innerText()).toBe(language.more);
      }
      await context.close();
    });
  }
});
