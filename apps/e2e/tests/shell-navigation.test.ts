import { PRODUCT } from "@ess/domain";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchBrowser } from "../src/browser.ts";
import { hashPath, menuLabels, signIn, startShellConsole, tabPaths } from "../src/shell-fixture.ts";

const SYSTEM_LABELS = menuLabels("system");
const USERS_LABELS = menuLabels("systemUsers");
const LOGS_LABELS = menuLabels("systemLog");

describe.skipIf(!CHROMIUM)("console shell: guard, menus, tabs, languages, forced sign-out", () => {
  let browser: Browser;
  let url: string;
  let stop: () => Promise<void>;
  let runtime: Awaited<ReturnType<typeof startShellConsole>>["runtime"];
  let asAdmin: Awaited<ReturnType<typeof startShellConsole>>["asAdmin"];
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    const started = await startShellConsole();
    ({ url, stop, runtime, asAdmin } = started);
    // Menu items beyond the default tree, made through the menu administration routes.
    const tree = (await started.asAdmin("GET", "/sys/menu/tree")) as { id: number; path: string }[];
    const system = tree.find((n) => n.path === "/admin")?.id;
    await started.asAdmin("POST", "/sys/menu/save", {
      menuType: "left",
      label: "帮助文档",
      nameEn: "Help",
      nameItaly: "Guida",
      nameEs: "Ayuda",
      nameJa: "ヘルプ",
      path: `${url}favicon.svg`,
      sort: 95,
      permission: "sys.menu.view",
    });
    await started.asAdmin("POST", "/sys/menu/save", {
      menuType: "left",
      parentId: system,
      label: "工程师工具",
      nameEn: "Engineer tools",
      nameItaly: "Strumenti tecnici",
      nameEs: "Herramientas técnicas",
      nameJa: "技術者ツール",
      path: "/admin/engineer",
      component: "views/admin/engineer/index",
      roles: ["ENGINEER"],
      sort: 50,
      permission: "sys.menu.view",
    });
    await started.asAdmin("POST", "/sys/menu/save", {
      menuType: "left",
      parentId: system,
      label: "保活页面",
      nameEn: "Kept page",
      nameItaly: "Pagina mantenuta",
      nameEs: "Página conservada",
      nameJa: "保持ページ",
      path: "/admin/kept",
      component: "views/admin/kept/index",
      keepAlive: true,
      sort: 51,
      permission: "sys.menu.view",
    });
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
    await expect.poll(() => page.getByTestId("menu:/admin").textContent()).toBe("System");
    await page.getByTestId("menu:/admin").click();
    await page.getByTestId("menu:/admin/log").click();
    await page.waitForURL(/#\/admin\/log\/index$/);
    await expect.poll(() => page.getByTestId("logs-page").isVisible()).toBe(true);
    // The item for engineers only is hidden from the administrator.
    expect(await page.getByTestId("menu:/admin/engineer").count()).toBe(0);
    await page.getByTestId(`menu:${url}favicon.svg`).click();
    await expect.poll(() => hashPath(page)).toBe("/myiframe/urlPath");
    expect(await page.getByTestId("iframe-page").getAttribute("src")).toBe(`${url}favicon.svg`);
    expect(decodeURIComponent(new URL(page.url()).hash)).toContain("name=Help");
    // Top menu items open their page.
    await page.getByTestId("top-menu:/info/index").click();
    await page.waitForURL(/#\/info\/index$/);
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
    await expect.poll(() => page.title()).toBe(USERS_LABELS[1]);

    // Closing the active tab opens the one before it.
    await go("/info/index");
    await expect.poll(() => page.title()).toBe("Personal information");
    await page.locator('[data-node-key="/info/index"] .ant-tabs-tab-remove').click();
    await page.waitForURL(/#\/admin\/log\/index$/);
    await expect.poll(() => page.title()).toBe(LOGS_LABELS[1]);
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
    // A menu item naming a page this console does not have says so.
    await go("/admin/kept/index");
    await expect.poll(() => page.getByTestId("page-unavailable").isVisible()).toBe(true);
    await go("/admin/log/index");
    // The kept page stays in the document, hidden; the log page shows.
    await expect.poll(() => page.getByTestId("logs-page").isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId("page-unavailable").count()).toBe(1);
    await expect.poll(() => page.getByTestId("page-unavailable").isVisible()).toBe(false);
    await page.locator('[data-node-key="/admin/kept/index"] .ant-tabs-tab-remove').click();
    await expect.poll(() => page.getByTestId("page-unavailable").count()).toBe(0);
  });

  it("switches the language of menus, tabs and antd components, in all five languages", async () => {
    await go("/admin/log/index");
    const cases = [
      ["简体中文", 0, "首页", "zh-CN", "关闭"],
      ["Italiano", 2, "Home", "it", "Chiudi"],
      ["Español", 3, "Inicio", "es", "Cerrar"],
      ["日本語", 4, "ホーム", "ja", "閉じる"],
      ["English", 1, "Home", "en-US", "Close"],
    ] as const;
    for (const [language, index, home, lang, close] of cases) {
      await page.getByTestId("language-select").click();
      await page.getByTitle(language, { exact: true }).click();
      await expect.poll(() => page.getByTestId("menu:/admin").textContent()).toBe(SYSTEM_LABELS[index]);
      await expect
        .poll(() => page.locator('[data-testid="tab"][data-path="/admin/log/index"]').textContent())
        .toBe(LOGS_LABELS[index]);
      await expect.poll(() => page.locator('[data-testid="tab"][data-path="/wel/index"]').textContent()).toBe(home);
      await expect.poll(() => page.title()).toBe(LOGS_LABELS[index]);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
      // antd's own texts follow too (its locale loads with the language).
      await page.getByTestId("settings-button").click();
      await expect.poll(() => page.locator(".ant-drawer-close").getAttribute("aria-label")).toBe(close);
      await page.keyboard.press("Escape");
      await expect.poll(() => page.locator(".ant-drawer-close").isVisible()).toBe(false);
      await page.getByTestId("menu:/admin").click();
      await expect.poll(() => page.getByTestId("menu:/admin/user").textContent()).toBe(USERS_LABELS[index]);
      await page.getByTestId("menu:/admin").click();
    }
  });

  it("signs the user out with the translated message when the server answers 401", async () => {
    // A known start, signed in at home, whatever an earlier step on a loaded machine left behind.
    await page.goto(`${url}#/wel/index`);
    await page.waitForURL(/#\/(wel\/index|login)$/);
    if (hashPath(page) === "/login") await signIn(page, url);
    await page.getByTestId("user-menu").waitFor();
    const token = await page.evaluate(() => JSON.parse(sessionStorage.getItem("ess.session") ?? "{}").access_token as string);
    // The session ends on the server (signed out elsewhere); the next call the console makes is refused.
    await runtime.app.inject({ method: "POST", url: "/sys/logout", headers: { authorization: `Bearer ${token}` } });
    // Personal information asks the server for the profile at once: that call is refused. Opened
    // by its address, as its link in the user menu does: on a loaded machine the menu's animation
    // can keep the link "not stable" for longer than a click waits.
    await page.evaluate((path) => {
      location.hash = path;
    }, PRODUCT.infoPath);
    await page.waitForURL(/#\/login$/);
    await expect.poll(() => page.locator(".ant-message").textContent()).toContain("sign in again");
    expect(await page.evaluate(() => sessionStorage.getItem("ess.session"))).toBeNull();
    expect(await page.evaluate(() => sessionStorage.getItem("ess.tabs"))).toBeNull();
  });

  it("shows 'No menu found' to a user whose menu is empty", async () => {
    // An account without roles holds no permission; once the items open to everyone (home and
    // one's own messages) are deleted, the server gives it no left menu at all.
    const tree = (await asAdmin("GET", "/sys/menu/tree")) as { id: number; path: string; menuType: string }[];
    const open = tree.filter((n) => ["/wel", "/inbox"].includes(n.path) && n.menuType === "left");
    // A retry finds them deleted already.
    for (const item of open) await asAdmin("POST", "/sys/menu/del", { id: item.id });
    const { hashPassword } = await import("@ess/server/password");
    await runtime.db.query(
      "INSERT INTO sys_user (tenant_id, username, password_hash, name) VALUES (1, 'nomenu', $1, 'No Menu')",
      [await hashPassword("NoMenu2025")],
    );
    await signIn(page, url, "nomenu", "NoMenu2025");
    await expect.poll(() => page.getByTestId("menu-empty").textContent()).toBe("No menu found");
  });
});
