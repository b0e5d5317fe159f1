import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchBrowser, screenshot } from "../src/browser.ts";
import { crudScreen } from "../src/crud-screen.ts";
import { signIn, startShellConsole } from "../src/shell-fixture.ts";

const WORDS = {
  "en-US": {
    web: "Web console",
    everyone: "Everyone I serve",
    draft: "Draft",
    scheduled: "Scheduled",
    published: "Published",
    recalled: "Recalled",
    unread: "1 unread",
    later: (d: Date) =>
      `${String(d.getUTCMonth() + 1).padStart(2, "0")}/${String(d.getUTCDate()).padStart(2, "0")}/${d.getUTCFullYear()} 10:30:00`,
  },
  es: {
    web: "Consola web",
    everyone: "Todos a quienes atiendo",
    draft: "Borrador",
    scheduled: "Programado",
    published: "Publicado",
    recalled: "Retirado",
    unread: "1 sin leer",
    later: (d: Date) =>
      `${String(d.getUTCDate()).padStart(2, "0")}/${String(d.getUTCMonth() + 1).padStart(2, "0")}/${d.getUTCFullYear()} 10:30:00`,
  },
} as const;

/**
 * Messages written on the console in two languages: one published at once after the question,
 * found in another console user's inbox with its unread count; one scheduled with the date-time
 * picker and recalled after the question.
 */
describe.skipIf(!CHROMIUM)("messages written, published, scheduled and recalled, in Chromium", () => {
  let browser: Browser;
  let url: string;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    const started = await startShellConsole();
    ({ url, stop } = started);
    const engineer = ((await started.asAdmin("GET", "/sys/role/page?roleCode=ENGINEER")) as { records: { id: number }[] })
      .records[0]?.id;
    await started.asAdmin("POST", "/sys/user/save", {
      username: "bruno",
      password: "Bruno2025x",
      name: "Bruno",
      userType: 0,
      roleIds: [engineer],
    });
    await started.runtime.db.query("UPDATE sys_user SET must_change_password = false WHERE username = 'bruno'");
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stop?.();
  });

  const confirmQuestion = async (page: Page) => {
    await page.waitForFunction(() => !document.querySelector(".ant-modal-confirm[class*='ant-zoom']"));
    await page.locator(".ant-modal-confirm").last().locator(".ant-btn-primary").click();
  };

  for (const locale of ["en-US", "es"] as const) {
    it(`in ${locale}`, async () => {
      const w = WORDS[locale];
      // A retried attempt writes messages of its own.
      const run = `${locale} ${Date.now() % 100_000}`;
      const now = `Maintenance tonight (${run})`;
      const later = `Price change (${run})`;
      const page: Page = await (
        await browser.newContext({ locale, timezoneId: "UTC", viewport: { width: 1600, height: 900 } })
      ).newPage();
      try {
        await signIn(page, url);
        const screen = crudScreen(page, "messages");
        await screen.open(url, "/content/message/index");

        await screen.create();
        await screen.fill({ title: now, summary: "The console stops at 22:00" });
        await page.getByTestId("messages-create-dialog-content-content").locator(".ProseMirror").fill("Back at 23:00.");
        await screen.choose("terminal", w.web);
        await screen.choose("audience", w.everyone);
        await screen.save();
        await screen.dialogGone();
        await expect
          .poll(async () => (await screen.row(now).isVisible()) && (await screen.row(now).textContent()))
          .toContain(w.draft);

        await screen.rowAction(now, "publish");
        await screen.save();
        await page.getByTestId("messages-publish-dialog-confirm-ok").click();
        await screen.dialogGone();
        await expect.poll(() => screen.row(now).textContent()).toContain(w.published);

        await screen.create();
        await screen.fill({ title: later, summary: "New prices next month" });
        await page.getByTestId("messages-create-dialog-content-content").locator(".ProseMirror").fill("See the tariff page.");
        await screen.choose("terminal", w.web);
        await screen.choose("audience", w.everyone);
        await screen.save();
        await screen.dialogGone();
        await expect
          .poll(async () => (await screen.row(later).isVisible()) && (await screen.row(later).textContent()))
          .toContain(w.draft);
        await screen.rowAction(later, "publish");
        const picker = page.getByTestId("messages-publish-dialog-publishAt");
        await picker.click();
        await picker.fill(w.later(new Date(Date.now() + 7 * 86_400_000)));
        // Enter takes the typed time (and may send the form at once, as Enter does in a form).
        await picker.press("Enter");
        const asked = page.getByTestId("messages-publish-dialog-confirm-ok");
        if (!(await asked.isVisible({ timeout: 1000 }).catch(() => false))) await screen.save();
        await asked.click();
        await screen.dialogGone();
        await expect.poll(() => screen.row(later).textContent()).toContain(w.scheduled);

        await screen.rowAction(later, "recall");
        await confirmQuestion(page);
        await expect.poll(() => screen.row(later).textContent()).toContain(w.recalled);
      } catch (error) {
        await screenshot(page, `messages-${locale}`);
        throw error;
      } finally {
        await page.context().close();
      }

      // Another console user finds the published message (not the recalled one) in its inbox.
      const reader: Page = await (await browser.newContext({ locale, viewport: { width: 1600, height: 900 } })).newPage();
      try {
        await signIn(reader, url, "bruno", "Bruno2025x");
        const inbox = crudScreen(reader, "inbox");
        await inbox.open(url, "/inbox/index");
        await expect.poll(() => inbox.row(now).isVisible()).toBe(true);
        expect(await inbox.row(later).count()).toBe(0);
        await expect.poll(() => reader.getByTestId("inbox-unread").textContent()).toContain(w.unread);
        await inbox.rowAction(now, "markRead");
        await expect.poll(() => reader.getByTestId("inbox-unread").textContent()).not.toContain(w.unread);
      } catch (error) {
        await screenshot(reader, `messages-inbox-${locale}`);
        throw error;
      } finally {
        await reader.context().close();
      }
    }, 150_000);
  }
});
