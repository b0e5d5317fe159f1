import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startInProcess } from "@ess/server/in-process";
import type { Page } from "playwright-core";

export const ADMIN_PASSWORD = "E2eAdmin2025";
const LANGS = ["zh-CN", "en-US", "it", "es", "ja"] as const;

/** A default menu item's label in zh-CN, en-US, it, es, ja (the server seeds them from i18n). */
export function menuLabels(key: string): string[] {
  return LANGS.map((lang) => {
    const file = fileURLToPath(new URL(`../../../packages/i18n/locales/${lang}/menus.json`, import.meta.url));
    return (JSON.parse(readFileSync(file, "utf8")) as { items: Record<string, string> }).items[key] ?? "";
  });
}

/** A console for browser tests, in this process, with captcha and slide verification off. */
export async function startShellConsole(env: Record<string, string> = {}) {
  const started = await startInProcess({ ESS_ADMIN_PASSWORD: ADMIN_PASSWORD, ESS_CAPTCHA: "off", ...env });
  const app = started.runtime.app;
  // Set-up calls come from an address of their own: otherwise a browser's sign-in as the same
  // account, within a second of the set-up's, is the same caller repeating the same change and is
  // refused as too frequent.
  const SETUP_ADDRESS = "127.0.0.2";
  /** Signs `username` in through the API (for set-up and app reads) and returns the access token. */
  const tokenFor = async (username: string, password: string) => {
    const login = await app.inject({
      method: "POST",
      url: "/login?grant_type=admin",
      payload: { username, password },
      remoteAddress: SETUP_ADDRESS,
    });
    const answer = login.json() as { data: { access_token: string } | null };
    if (!answer.data) throw new Error(`sign-in of ${username} failed: ${login.body}`);
    return answer.data.access_token;
  };
  // One sign-in for all set-up calls (the server refuses the same sign-in repeated at once).
  let token: string | null = null;
  /** Calls the API as the administrator (for setting up data through the real routes). */
  const asAdmin = async (method: "GET" | "POST", url: string, payload?: object) => {
    token ??= await tokenFor("admin", ADMIN_PASSWORD);
    const response = await app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      remoteAddress: SETUP_ADDRESS,
      ...(payload ? { payload } : {}),
    });
    const body = response.json() as { code: number; data: unknown; msg: string };
    if (body.code !== 0) throw new Error(`${method} ${url}: ${response.body}`);
    return body.data;
  };
  return { ...started, asAdmin, tokenFor };
}

/** Signs in through the sign-in page and waits for home. */
export async function signIn(page: Page, url: string, username = "admin", password = ADMIN_PASSWORD) {
  await page.goto(`${url}#/login`);
  await page.getByTestId("login-username").fill(username);
  await page.getByTestId("login-password").fill(password);
  await page.getByTestId("login-submit").click();
  await page.waitForURL(/#\/wel\/index$/);
  await page.getByTestId("home-page").waitFor();
}

/** The open tabs' paths, in order. */
export const tabPaths = (page: Page) => page.getByTestId("tab").evaluateAll((els) => els.map((e) => e.getAttribute("data-path")));

/** The page path after the hash. */
export const hashPath = (page: Page) => new URL(page.url()).hash.slice(1).split("?")[0];
