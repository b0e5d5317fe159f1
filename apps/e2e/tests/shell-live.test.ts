import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { reminderDestination } from "@ess/contracts";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchBrowser } from "../src/browser.ts";
import { signIn, startShellConsole } from "../src/shell-fixture.ts";

const DIST = fileURLToPath(new URL("../../web/dist/", import.meta.url));

/** "Confirm" in the dialog that asks this question, not in one still fading out before it. */
const confirmIn = (page: Page, question: string) =>
  page.locator(".ant-modal-confirm", { hasText: question }).getByRole("button", { name: "Confirm" }).click();

describe.skipIf(!CHROMIUM)("console shell: error log, reminders, version check, chunk failures", () => {
  let browser: Browser;
  let console_: Awaited<ReturnType<typeof startShellConsole>>;
  let url: string;
  let page: Page;
  // The console is served from a copy of the build so the test can publish a "new version".
  const webDist = join(tmpdir(), `ess-e2e-dist-${process.pid}`);
  const versionFile = join(webDist, "version.json");

  beforeAll(async () => {
    cpSync(DIST, webDist, { recursive: true });
    console_ = await startShellConsole({ ESS_WEB_DIST: webDist });
    url = console_.url;
    browser = await launchBrowser();
    page = await browser.newPage({ locale: "en-US", viewport: { width: 1280, height: 800 } });
    await signIn(page, url);
  });
  afterAll(async () => {
    await browser?.close();
    await console_?.stop();
    rmSync(webDist, { recursive: true, force: true });
  });

  it("records unhandled errors, lists them ten per page with stacks, uploads and clears after confirming", async () => {
    // A retry starts from empty local and server logs, not from what the failed attempt left in them.
    await page.evaluate(() => localStorage.removeItem("ess.errorLog"));
    await console_.runtime.db.query("DELETE FROM sys_log WHERE log_type = 'client-error'");
    await page.reload();
    await page.evaluate(() => {
      for (let i = 0; i < 12; i++) setTimeout(() => Promise.reject(new Error(`battery poll failed #${i}`)), 0);
      setTimeout(() => {
        throw new TypeError("cannot read the inverter mode");
      }, 0);
    });
    await expect.poll(() => page.getByTestId("error-log-badge").locator(".ant-scroll-number").getAttribute("title")).toBe("13");

    await page.getByTestId("error-log-button").click();
    const dialog = page.getByTestId("error-log-dialog");
    await expect.poll(() => dialog.locator("tbody tr.ant-table-row").count()).toBe(10);
    await dialog.locator(".ant-pagination-next").click();
    await expect.poll(() => dialog.locator("tbody tr.ant-table-row").count()).toBe(3);
    const row = dialog.locator("tbody tr.ant-table-row", { hasText: "cannot read the inverter mode" });
    await row.locator(".ant-table-row-expand-icon").click();
    await expect
      .poll(() => dialog.getByTestId("error-log-stack").first().textContent())
      .toContain("TypeError: cannot read the inverter mode");

    // Upload: a confirmation, then the entries reach the server and leave the local log.
    await page.getByTestId("error-log-upload").click();
    await expect
      .poll(() => page.locator(".ant-modal-confirm-title", { hasText: "Confirm to upload local logs to server?" }).isVisible())
      .toBe(true);
    await confirmIn(page, "Confirm to upload local logs to server?");
    await expect.poll(() => page.getByText("Sent successfully!").isVisible()).toBe(true);
    const { rows: uploaded } = await console_.runtime.db.query<{ message: string; request_uri: string; operator_name: string }>(
      "SELECT message, request_uri, operator_name FROM sys_log WHERE log_type = 'client-error'",
    );
    expect(uploaded).toHaveLength(13);
    expect(uploaded.map((e) => e.message)).toContain("cannot read the inverter mode");
    expect(uploaded[0]).toMatchObject({ operator_name: "admin" });
    await expect.poll(() => dialog.locator("tbody tr.ant-table-row").count()).toBe(0);

    // Clear: another error, then clear after confirming.
    await page.evaluate(() => setTimeout(() => Promise.reject(new Error("meter offline")), 0));
    await expect.poll(() => dialog.locator("tbody tr.ant-table-row").count()).toBe(1);
    await page.getByTestId("error-log-clear").click();
    await expect
      .poll(() => page.locator(".ant-modal-confirm-title", { hasText: "Confirm to clear local log records?" }).isVisible())
      .toBe(true);
    await confirmIn(page, "Confirm to clear local log records?");
    await expect.poll(() => page.getByText("Cleared successfully!").isVisible()).toBe(true);
    await expect.poll(() => dialog.locator("tbody tr.ant-table-row").count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem("ess.errorLog"))).toBeNull();
    await page.keyboard.press("Escape");
  });

  it("shows a reminder published on the server as a warning notice", async () => {
    const user = await page.evaluate(
      () => JSON.parse(sessionStorage.getItem("ess.session") ?? "{}").userInfo.user as { id: number; tenantId: number },
    );
    const destination = reminderDestination(user.tenantId, user.id);
    await expect.poll(() => console_.runtime.realtime.subscriberCount(destination), { timeout: 15_000 }).toBe(1);
    const token = await page.evaluate(() => JSON.parse(sessionStorage.getItem("ess.session") ?? "{}").access_token as string);
    const response = await console_.runtime.app.inject({
      method: "POST",
      url: "/act/reminders",
      headers: { authorization: `Bearer ${token}` },
      payload: { userId: user.id, title: "Firmware campaign", content: "12 devices wait for your confirmation" },
    });
    expect(response.json()).toMatchObject({ code: 0, data: { delivered: 1 } });
    const notice = page.locator(".ant-notification-notice-warning");
    await expect.poll(() => notice.textContent()).toContain("12 devices wait for your confirmation");
    expect(await notice.textContent()).toContain("Firmware campaign");
    await notice.locator(".ant-notification-notice-close").click();

    // A dropped connection comes back by itself (reconnection every 5 s) and subscribes again.
    for (const socket of console_.runtime.app.websocketServer.clients) socket.terminate();
    await expect.poll(() => console_.runtime.realtime.subscriberCount(destination)).toBe(0);
    await expect.poll(() => console_.runtime.realtime.subscriberCount(destination), { timeout: 12_000 }).toBe(1);
  });

  it("notices a new build on navigation and reloads about 3 seconds later", async () => {
    const original = readFileSync(versionFile, "utf8");
    writeFileSync(versionFile, JSON.stringify({ ...JSON.parse(original), build: "v2099-01-01-next" }));
    await page.evaluate(() => {
      (window as unknown as { beforeUpdate: boolean }).beforeUpdate = true;
    });
    await page.goto(`${url}#/info/index`);
    await expect.poll(() => page.getByText("System update detected, page will refresh in 3 seconds").isVisible()).toBe(true);
    const noticedAt = Date.now();
    // The build the browser now gets is the "new" one again, so the reloaded page stays.
    writeFileSync(versionFile, original);
    await expect.poll(() => page.evaluate(() => "beforeUpdate" in window), { timeout: 8000 }).toBe(false);
    expect(Date.now() - noticedAt).toBeGreaterThan(2500);
    await page.getByTestId("info-page").waitFor();
  });

  it("offers a reload instead of a white screen when a page's code cannot load", async () => {
    await page.route(/\/assets\/personal-info\.page-[^/]+\.js$/, (route) => route.abort());
    await page.goto(`${url}#/wel/index`);
    await page.reload();
    await page.getByTestId("home-page").waitFor();
    await page.goto(`${url}#/info/index`);
    await expect.poll(() => page.getByTestId("chunk-reload").first().isVisible()).toBe(true);
    expect(await page.getByTestId("top-bar").isVisible()).toBe(true);
    await page.unroute(/\/assets\/personal-info\.page-[^/]+\.js$/);
    await page.getByTestId("chunk-reload").first().click();
    await page.getByTestId("info-page").waitFor();
  });
});
