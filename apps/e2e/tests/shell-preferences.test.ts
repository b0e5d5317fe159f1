import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CHROMIUM, clickUntil, launchBrowser } from "../src/browser.ts";
import { hashPath, signIn, startShellConsole } from "../src/shell-fixture.ts";

describe.skipIf(!CHROMIUM)("console shell: themes, colours, switches, lock, screen sizes", () => {
  let browser: Browser;
  let url: string;
  let stop: () => Promise<void>;
  let page: Page;

  beforeAll(async () => {
    ({ url, stop } = await startShellConsole());
    browser = await launchBrowser();
    const context = await browser.newContext({ locale: "en-US", viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    await signIn(page, url);
  });
  afterAll(async () => {
    await browser?.close();
    await stop?.();
  });

  // Each test (and its retry) begins unlocked, with the default look and no dialog open, so an
  // attempt that stopped half-way on a loaded machine does not decide the next one.
  beforeEach(async () => {
    await page.evaluate(() => {
      localStorage.removeItem("ess.preferences");
      localStorage.removeItem("ess.lock");
    });
    await page.goto(`${url}#/wel/index`);
    await page.reload();
    await page.waitForURL(/#\/wel\/index$/);
  });

  const shell = () => page.locator(".ess-shell");
  const primaryOfActiveTab = () =>
    page.locator(".ant-tabs-tab-active .ant-tabs-tab-btn").evaluate((el) => getComputedStyle(el).color);

  it("keeps the chosen theme and theme colour across a reload", async () => {
    expect(await shell().getAttribute("data-theme")).toBe("default");
    expect(await primaryOfActiveTab()).toBe("rgb(64, 158, 255)"); // #409EFF
    await page.getByTestId("theme-chooser").click();
    await page.getByTestId("theme-theme-star").click();
    await expect.poll(() => shell().getAttribute("data-theme")).toBe("theme-star");

    await page.getByTestId("theme-colour").click();
    const presets = page.locator(".ant-color-picker-presets-color");
    await expect.poll(() => presets.count()).toBe(7);
    // The picker's panel zooms in; a click during that may land nowhere.
    await clickUntil(presets.nth(3), async () => (await primaryOfActiveTab()) === "rgb(17, 169, 131)", "choosing #11A983");
    await page.keyboard.press("Escape");

    await page.reload();
    await expect.poll(() => shell().getAttribute("data-theme")).toBe("theme-star");
    await expect.poll(primaryOfActiveTab).toBe("rgb(17, 169, 131)");
    const headerBg = await page.getByTestId("top-bar").evaluate((el) => getComputedStyle(el).backgroundImage);
    expect(headerBg).toContain("linear-gradient");
  });

  it("hides parts of the layout with the drawer's switches, and remembers them", async () => {
    await page.getByTestId("settings-button").click();
    await expect.poll(() => page.getByTestId("version-panel").textContent()).toContain("3.11.0");
    for (const name of ["tag", "debug", "theme", "color", "fullscreen", "lock", "collapse", "menu"]) {
      expect(await page.getByTestId(`switch-${name}`).getAttribute("aria-checked"), name).toBe("true");
    }
    await page.getByTestId("switch-tag").click();
    await page.getByTestId("switch-lock").click();
    await expect.poll(() => page.getByTestId("tab-bar").count()).toBe(0);
    await expect.poll(() => page.getByTestId("lock-button").count()).toBe(0);
    await page.reload();
    await expect.poll(() => page.getByTestId("top-bar").isVisible()).toBe(true);
    expect(await page.getByTestId("tab-bar").count()).toBe(0);
    await page.getByTestId("settings-button").click();
    await page.getByTestId("switch-tag").click();
    await page.getByTestId("switch-lock").click();
    await page.keyboard.press("Escape");
    await expect.poll(() => page.getByTestId("tab-bar").isVisible()).toBe(true);
  });

  it("locks with a required password, keeps every route on /lock, and unlocks with it", async () => {
    await page.goto(`${url}#/info/index`);
    await page.getByTestId("lock-button").click();
    await clickUntil(
      page.locator("#lock-submit"),
      () => page.getByText("Lock password cannot be empty").isVisible(),
      "refusing an empty lock password",
    );
    await page.getByTestId("lock-password").fill("Quiet2025");
    await page.locator("#lock-submit").click();
    await page.waitForURL(/#\/lock\/pages1$/);

    for (const path of ["/wel/index", "/info/index", "/login", "/admin/user/index"]) {
      await page.goto(`${url}#${path}`);
      await page.waitForURL(/#\/lock\/pages1$/);
    }
    await page.reload();
    await page.waitForURL(/#\/lock\/pages1$/);

    await page.getByTestId("lock-open-unlock").click();
    await page.waitForURL(/#\/lock\/pages2$/);
    await page.getByTestId("unlock-password").fill("Wrong2025");
    await page.getByTestId("unlock-submit").click();
    await expect.poll(() => page.getByText("Wrong lock password").isVisible()).toBe(true);
    await page.getByTestId("unlock-password").fill("Quiet2025");
    await page.getByTestId("unlock-submit").click();
    await page.waitForURL(/#\/info\/index$/);
  });

  it("clears the lock when the user signs in again instead", async () => {
    await page.getByTestId("lock-button").click();
    await page.getByTestId("lock-password").fill("Quiet2025");
    await page.locator("#lock-submit").click();
    await page.waitForURL(/#\/lock\/pages1$/);
    // Signing in anew (another browser tab of the same profile) clears the lock too.
    const other = await page.context().newPage();
    await signIn(other, url);
    expect(hashPath(other)).toBe("/wel/index");
    await other.close();
    await page.reload();
    await page.waitForURL(/#\/wel\/index$/);

    await page.getByTestId("lock-button").click();
    await page.getByTestId("lock-password").fill("Quiet2025");
    await page.locator("#lock-submit").click();
    await page.waitForURL(/#\/lock\/pages1$/);
    await page.getByTestId("lock-open-unlock").click();
    await page.getByTestId("lock-sign-in-again").click();
    await page.waitForURL(/#\/login$/);
    await signIn(page, url);
    expect(hashPath(page)).toBe("/wel/index");
  });

  it("sorts widths into screen classes and overlays the side menu on small screens", async () => {
    // A fresh page, so that a retry does not begin with the side menu an earlier attempt opened.
    await page.setViewportSize({ width: 1440, height: 800 });
    await page.reload();
    for (const [width, screen] of [
      [375, "0"],
      [800, "1"],
      [1024, "2"],
      [1440, "3"],
    ] as const) {
      await page.setViewportSize({ width, height: 800 });
      await expect.poll(() => shell().getAttribute("data-screen")).toBe(screen);
    }
    await page.setViewportSize({ width: 375, height: 740 });
    await expect.poll(() => page.getByTestId("sidebar").count()).toBe(0);
    await page.getByTestId("collapse-toggle").click();
    await expect.poll(() => page.getByTestId("sidebar").isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId("overlay-mask").isVisible()).toBe(true);
    const logItem = page.getByTestId("menu:/admin/log");
    await clickUntil(page.getByTestId("menu:/admin"), () => logItem.isVisible(), "opening the System group");
    await clickUntil(logItem, async () => hashPath(page) === "/admin/log/index", "opening the operation log");
    await expect.poll(() => page.getByTestId("sidebar").count()).toBe(0);
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(() => page.getByTestId("sidebar").isVisible()).toBe(true);
  });
});
