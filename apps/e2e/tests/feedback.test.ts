import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchBrowser, screenshot } from "../src/browser.ts";
import { crudScreen } from "../src/crud-screen.ts";
import { signIn, startShellConsole } from "../src/shell-fixture.ts";

const LABELS = {
  "en-US": { unread: "To be read", read: "Read", pending: "Needs handling", handled: "Handled" },
  es: { unread: "Por leer", read: "Leída", pending: "Por tramitar", handled: "Tramitada" },
} as const;

/**
 * An end user's feedback answered through the console in two languages: it arrives to be read,
 * opening it reads it, staff mark it as needing handling and then handled with a reply, and the
 * user finds the reply through the app API.
 */
describe.skipIf(!CHROMIUM)("feedback answered through its states, in Chromium", () => {
  let browser: Browser;
  let url: string;
  let stop: () => Promise<void>;
  let inject: Awaited<ReturnType<typeof startShellConsole>>["runtime"]["app"]["inject"];
  let userAuth: { authorization: string };

  beforeAll(async () => {
    const started = await startShellConsole();
    ({ url, stop } = started);
    inject = started.runtime.app.inject.bind(started.runtime.app);
    const org = (await started.asAdmin("POST", "/admin/lsyinstaller/save", {
      kind: "installer",
      name: "Luce Impianti",
      authorisationCode: "AUTH-18",
      contact: "Marta Luce",
      email: "marta@luce.example",
      account: { username: "luce", password: "Luce2025x" },
    })) as { id: number };
    await started.asAdmin("POST", "/admin/lsyuser/save", {
      username: "carla",
      password: "Carla2025x",
      name: "Carla",
      orgId: org.id,
    });
    await started.runtime.db.query("UPDATE sys_user SET must_change_password = false WHERE username = 'carla'");
    userAuth = { authorization: `Bearer ${await started.tokenFor("carla", "Carla2025x")}` };
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stop?.();
  });

  for (const locale of ["en-US", "es"] as const) {
    it(`in ${locale}`, async () => {
      // A retried attempt submits feedback of its own.
      const words = `The chart loads slowly (${locale} ${Date.now() % 100_000})`;
      const submitted = await inject({
        method: "POST",
        url: "/app/feedback/save",
        headers: userAuth,
        payload: { type: 2, content: words },
      });
      expect(submitted.statusCode).toBe(200);
      const l = LABELS[locale];

      const page: Page = await (await browser.newContext({ locale, viewport: { width: 1440, height: 900 } })).newPage();
      try {
        await signIn(page, url);
        const screen = crudScreen(page, "feedback");
        await screen.open(url, "/content/feedback/index");
        const row = () => screen.row(words);
        await expect.poll(async () => (await row().isVisible()) && (await row().textContent())).toContain(l.unread);

        // Opening it reads it.
        await screen.rowAction(words, "open");
        await expect.poll(() => page.getByTestId("feedback-details-state").textContent()).toBe(l.read);
        await page.keyboard.press("Escape");
        await expect.poll(() => row().textContent()).toContain(l.read);

        await screen.rowAction(words, "handle");
        await screen.choose("state", l.pending);
        await screen.save();
        await screen.dialogGone();
        await expect.poll(() => row().textContent()).toContain(l.pending);

        await screen.rowAction(words, "handle");
        await screen.choose("state", l.handled);
        await screen.fill({ reply: `Fixed in the next version (${locale})` });
        await screen.save();
        await screen.dialogGone();
        await expect.poll(() => row().textContent()).toContain(l.handled);
      } catch (error) {
        await screenshot(page, `feedback-${locale}`);
        throw error;
      } finally {
        await page.close();
      }

      const mine = await inject({ method: "GET", url: "/app/feedback/page", headers: userAuth });
      const item = (mine.json().data.records as { content: string; state: number; replies: { content: string }[] }[]).find(
        (r) => r.content === words,
      );
      expect(item?.state).toBe(3);
      expect(item?.replies.map((r) => r.content)).toEqual([`Fixed in the next version (${locale})`]);
    }, 120_000);
  }
});
