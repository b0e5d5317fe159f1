import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../src/api.ts";
import { CHROMIUM, launchBrowser, screenshot } from "../src/browser.ts";
import { startConsole } from "../src/console-server.ts";
import { ADMIN_PASSWORD } from "../src/shell-fixture.ts";
import { signInOnPage, solveSlideOnPage } from "../src/sign-in-page.ts";

describe.skipIf(!CHROMIUM)("sign-in protection, forced and voluntary password change in Chromium", () => {
  let browser: Browser;
  let url: string;
  let stop: () => Promise<unknown>;

  beforeAll(async () => {
    const started = await startConsole({ ESS_CAPTCHA: "on" });
    url = started.url;
    stop = () => started.server.stop();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stop?.();
  });

  it("refuses a wrong picture code, then signs in with the slide verification (en-US)", async () => {
    const page = await browser.newPage({ locale: "en-US" });
    await page.goto(url);
    await expect.poll(() => page.getByText("Forgot your password? Please contact the administrator").isVisible()).toBe(true);
    await page.getByTestId("use-captcha").click();
    await expect
      .poll(() => page.getByTestId("captcha-image").evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBe(120);
    await page.getByTestId("login-username").fill("admin");
    await page.getByTestId("login-password").fill(ADMIN_PASSWORD);
    await page.getByTestId("captcha-input").fill("AAAA");
    await page.getByTestId("login-submit").click();
    await expect.poll(() => page.getByTestId("login-error").textContent()).toBe("Wrong verification code, please enter it again");
    // A new picture comes with the refusal, and the field is cleared for its characters.
    expect(await page.getByTestId("captcha-input").inputValue()).toBe("");

    await page.getByTestId("use-slide").click();
    await page.getByTestId("login-submit").click();
    await expect.poll(() => page.getByText("Please complete the slide verification").first().isVisible()).toBe(true);
    await screenshot(page, "identity-sign-in-slide-en-US");
    await solveSlideOnPage(page);
    await expect.poll(() => page.getByText("Verified").isVisible()).toBe(true);
    await page.getByTestId("login-submit").click();
    await page.waitForURL(/#\/wel\/index$/);
    await expect.poll(() => page.getByTestId("home-greeting").textContent()).toBe("Hello, Administrator");
  });

  it("a new account with a role of a few permissions must change its password first, then gets only its menus (it)", async () => {
    const api = apiClient(url);
    const admin = await api.signIn("admin", ADMIN_PASSWORD);
    const role = await api.post<{ id: number }>(
      "/sys/role/save",
      { roleCode: "AUDITOR", roleName: "Revisore", userType: 0, permissions: ["sys.log.view"] },
      admin,
    );
    await api.post(
      "/sys/user/save",
      { username: "mario", password: "Primo2025x", name: "Mario Rossi", userType: 0, roleIds: [role.id] },
      admin,
    );

    const page = await browser.newPage({ locale: "it-IT" });
    await page.goto(url);
    await expect.poll(() => page.getByRole("button", { name: "Accedi" }).isVisible()).toBe(true);
    await signInOnPage(page, "mario", "Primo2025x");
    await page.waitForURL(/#\/info\/index$/);
    await expect.poll(() => page.getByTestId("password-forced").isVisible()).toBe(true);
    // Any other page leads back here until the password is changed.
    await page.goto(`${url}#/wel/index`);
    await page.waitForURL(/#\/info\/index$/);

    await page.getByTestId("old-password").fill("Primo2025x");
    await page.getByTestId("new-password").fill("Nuova2025x");
    await page.getByTestId("confirm-password").fill("Nuova2025y");
    await page.getByTestId("change-password").click();
    await expect.poll(() => page.getByText("Le due password non coincidono").isVisible()).toBe(true);
    await page.getByTestId("confirm-password").fill("Nuova2025x");
    await page.getByTestId("change-password").click();
    await page.waitForURL(/#\/wel\/index$/);
    await expect.poll(() => page.getByTestId("home-greeting").textContent()).toBe("Ciao, Mario Rossi");
    await screenshot(page, "identity-after-forced-change-it");

    // The menu the console receives for this session holds only what the role permits.
    const menus = await page.evaluate(async () => {
      const session = JSON.parse(sessionStorage.getItem("ess.session") ?? "{}") as { access_token: string };
      const response = await fetch("/sys/menu/menus", { headers: { authorization: `Bearer ${session.access_token}` } });
      const body = (await response.json()) as {
        data: { path: string; nameItaly: string; children: { path: string; nameItaly: string }[] }[];
      };
      return body.data.map((m) => [m.path, m.nameItaly, m.children.map((c) => c.nameItaly)]);
    });
    expect(menus).toEqual([
      ["/wel", "Home", []],
      ["/inbox", "I miei messaggi", []],
      ["/admin", "Sistema", ["Registro operazioni"]],
    ]);
    await expect(api.signIn("mario", "Nuova2025x")).resolves.toMatch(/.{20,}/);
  });

  it("changes one's password from personal information, refusing a wrong current password (en-US)", async () => {
    const api = apiClient(url);
    const admin = await api.signIn("admin", ADMIN_PASSWORD);
    const roles = await api.get<{ records: { id: number; roleCode: string }[] }>("/sys/role/page?roleCode=ENGINEER", admin);
    await api.post(
      "/sys/user/save",
      { username: "erin", password: "Start2025x", name: "Erin", userType: 0, roleIds: [roles.records[0]?.id] },
      admin,
    );
    const erin = await api.signIn("erin", "Start2025x");
    await api.post(
      "/sys/user/password/edit",
      { oldPassword: "Start2025x", newPassword: "Erin2025x", confirmPassword: "Erin2025x" },
      erin,
    );

    const page = await browser.newPage({ locale: "en-US" });
    await page.goto(url);
    await signInOnPage(page, "erin", "Erin2025x");
    await page.waitForURL(/#\/wel\/index$/);
    await page.goto(`${url}#/info/index`);
    await page.getByTestId("old-password").fill("NotMine2025");
    await page.getByTestId("new-password").fill("Erin2026x");
    await page.getByTestId("confirm-password").fill("Erin2026x");
    await page.getByTestId("change-password").click();
    await expect.poll(() => page.getByText("The current password is wrong").isVisible()).toBe(true);
    await page.getByTestId("old-password").fill("Erin2025x");
    await page.getByTestId("change-password").click();
    await expect.poll(() => page.getByText("Your password has been changed").isVisible()).toBe(true);
    await expect(api.signIn("erin", "Erin2026x")).resolves.toMatch(/.{20,}/);
  });
});
