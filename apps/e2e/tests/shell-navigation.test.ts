import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchBrowser } from "../src/browser.ts";
import { hashPath, LOGS_LABELS, SYSTEM_LABELS, signIn, startShellConsole, tabPaths, USERS_LABELS } from "../src/shell-fixture.ts";

describe.skipIf(!CHROMIUM)("console shell: guard, menus, tabs, languages, forced sign-out", () => {
  let browser: Browser;
  let url: string;
  let stop: () => Promise<void>;
  let runtime: Awaited<ReturnType<typeof startShellConsole>>["runtime"];
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    const started = await startShellConsole();
    ({ url, stop, runtime } = started);
    process.stdout.write(`shell-navigation: test-only routes in use: ${started.fixtures.join(", ") || "none"}\n`);
    browser = await launchBrowser();
    context = await browser.newContext({ locale: "en-US", viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await stop?.();
  });

  const go = async (path: string) => {
    await page.goto(`${url}#${path}`);
  };

  it("sends a visitor without a session to /login from every protected route, and lets public ones open", async () => {
    for (const path of ["/wel/index", "/info/index", "/403", "/500", "/admin/user/index", "/no/such/page", "/lock"]) {
      await go(path);
      await page.waitForURL(/#\/login$/);
    }
    await go("/404");
    await expect.poll(() => page.getByTestId("status-404").isVisible()).toBe(true);
    await go("/");
    await page.waitForURL(/#\/login$/);
  });

  it("after sign-in: / and /wel lead home, /login leads away, unknown paths go to /404", async () => {
    await signIn(page, url);
    await go("/");
    await page.waitForURL(/#\/wel\/index$/);
    await go("/wel");
    await page.waitForURL(/#\/wel\/index$/);
    await go("/login");
    await page.waitForURL(/#\/wel\/index$/);
    await go("/no/such/page");
    await page.waitForURL(/#\/404$/);
    await go("/wel/index");
    await expect.poll(() => tabPaths(page)).toEqual(["/wel/index"]);
  });

  it("builds routes from the server menu: /index for leaves, iframes for addresses, roles hide items", async () => {
    await go("/wel/index");
    await expect.poll(() => page.getByTestId("menu-item-2").textContent()).toBe("System");
    await page.getByTestId("menu-item-2").click();
    await page.getByTestId("menu-item-21").click();
    await page.waitForURL(/#\/admin\/user\/index$/);
    await expect.poll(() => page.getByTestId("page-unavailable").isVisible()).toBe(true);
    expect(await page.getByTestId("menu-item-23").count()).toBe(0);
    await page.getByTestId("menu-item-3").click();
    await expect.poll(() => hashPath(page)).toBe("/myiframe/urlPath");
    expect(await page.getByTestId("iframe-page").getAttribute("src")).toBe(`${url}favicon.svg`);
    expect(decodeURIComponent(new URL(page.url()).hash)).toContain("name=Help");
    // The top menu opens its section in the side menu.
    await page.getByTestId("top-menu").getByText("Operations").click();
    await expect.poll(() => page.getByTestId("menu-item-101").textContent()).toBe("Alarms");
    await page.getByTestId("top-menu").getByText("Operations").click();
    await expect.poll(() => page.getByTestId("menu-item-2").isVisible()).toBe(true);
  });

  it("applies every tab rule, with the page title following the current tab", async () => {
    await go("/wel/index");
    await page.evaluate(() => sessionStorage.removeItem("ess.tabs"));
    await page.reload();
    await expect.poll(() => tabPaths(page)).toEqual(["/wel/index"]);
    // The only tab, home, has no close button.
    expect(await page.locator(".ant-tabs-tab-remove").count()).toBe(0);
    await expect.poll(() => page.title()).toBe("Home");

    await go("/admin/user/index");
    await go("/admin/log/index");
    await go("/info/index");
    await go("/admin/user/index"); // no duplicate
    await expect.poll(() => tabPaths(page)).toEqual(["/wel/index", "/admin/user/index", "/admin/log/index", "/info/index"]);
    await expect.poll(() => page.title()).toBe("Users");

    // Closing the active tab opens the one before it.
    await go("/info/index");
    await expect.poll(() => page.title()).toBe("Personal information");
    await page.locator('[data-node-key="/info/index"] .ant-tabs-tab-remove').click();
    await page.waitForURL(/#\/admin\/log\/index$/);
    await expect.poll(() => page.title()).toBe("Logs");
    // Closing another tab keeps the current one.
    await page.locator('[data-node-key="/admin/user/index"] .ant-tabs-tab-remove').click();
    await expect.poll(() => tabPaths(page)).toEqual(["/wel/index", "/admin/log/index"]);
    expect(hashPath(page)).toBe("/admin/log/index");

    // More → close others keeps home and the current tab.
    await go("/info/index");
    await go("/admin/user/index");
    await page.getByTestId("tabs-more").click();
    await page.getByTestId("tabs-close-others").click();
    await expect.poll(() => tabPaths(page)).toEqual(["/wel/index", "/admin/user/index"]);

    // Right-click menu: close others on a tab that is not current switches to it.
    await go("/info/index");
    await page.locator('[data-testid="tab"][data-path="/admin/user/index"]').click({ button: "right" });
    await page.getByTestId("tab-menu-close-others").click();
    await expect.poll(() => tabPaths(page)).toEqual(["/wel/index", "/admin/user/index"]);
    await page.waitForURL(/#\/admin\/user\/index$/);

    // Close all returns to home.
    await go("/info/index");
    await page.getByTestId("tabs-more").click();
    await page.getByTestId("tabs-close-all").click();
    await page.waitForURL(/#\/wel\/index$/);
    await expect.poll(() => tabPaths(page)).toEqual(["/wel/index"]);
  });

  it("keeps a keep-alive page mounted while another tab shows", async () => {
    await go("/admin/user/index");
    await expect.poll(() => page.getByTestId("page-unavailable").count()).toBe(1);
    await go("/admin/log/index");
    // The users page (keepAlive) stays in the document, hidden; the logs page shows.
    await expect.poll(() => page.getByTestId("page-unavailable").count()).toBe(2);
    await expect.poll(() => page.getByTestId("page-unavailable").first().isVisible()).toBe(false);
    await page.locator('[data-node-key="/admin/user/index"] .ant-tabs-tab-remove').click();
    await expect.poll(() => page.getByTestId("page-unavailable").count()).toBe(1);
  });

  it("switches the language of menus, tabs and antd components, in all five languages", async () => {
    await go("/admin/log/index");
    const cases = [
      ["简体中文", 0, "首页", "zh-CN"],
      ["Italiano", 2, "Home", "it"],
      ["Español", 3, "Inicio", "es"],
      ["日本語", 4, "ホーム", "ja"],
      ["English", 1, "Home", "en-US"],
    ] as const;
    for (const [language, index, home, lang] of cases) {
      await page.getByTestId("language-select").click();
      await page.getByTitle(language, { exact: true }).click();
      await expect.poll(() => page.getByTestId("menu-item-2").textContent()).toBe(SYSTEM_LABELS[index]);
      await expect
        .poll(() => page.locator('[data-testid="tab"][data-path="/admin/log/index"]').textContent())
        .toBe(LOGS_LABELS[index]);
      await expect.poll(() => page.locator('[data-testid="tab"][data-path="/wel/index"]').textContent()).toBe(home);
      await expect.poll(() => page.title()).toBe(LOGS_LABELS[index]);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
      await page.getByTestId("menu-item-2").click();
      await expect.poll(() => page.getByTestId("menu-item-21").textContent()).toBe(USERS_LABELS[index]);
      await page.getByTestId("menu-item-2").click();
    }
  });

  it("signs the user out with the translated message when the server answers 401", async () => {
    const token = await page.evaluate(() => JSON.parse(sessionStorage.getItem("ess.session") ?? "{}").access_token as string);
    // The session ends on the server (signed out elsewhere); the next call the console makes is refused.
    await runtime.app.inject({ method: "POST", url: "/sys/logout", headers: { authorization: `Bearer ${token}` } });
    await page.getByTestId("user-menu").click();
    await page.getByTestId("user-info-link").click();
    await page.reload();
    await page.waitForURL(/#\/login$/);
    await expect.poll(() => page.locator(".ant-message").textContent()).toContain("sign in again");
    expect(await page.evaluate(() => sessionStorage.getItem("ess.session"))).toBeNull();
    expect(await page.evaluate(() => sessionStorage.getItem("ess.tabs"))).toBeNull();
  });

  it("shows 'No menu found' to a user whose menu is empty", async () => {
    const { hashPassword } = await import("@ess/server/password");
    await runtime.db.query(
      "INSERT INTO sys_user (tenant_id, username, password_hash, name) VALUES (1, 'nomenu', $1, 'No Menu')",
      [await hashPassword("NoMenu2025")],
    );
    await signIn(page, url, "nomenu", "NoMenu2025");
    await expect.poll(() => page.getByTestId("menu-empty").textContent()).toBe("No menu found");
  });
});
