import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchBrowser } from "../src/browser.ts";
import { signIn, startShellConsole } from "../src/shell-fixture.ts";

describe.skipIf(!CHROMIUM)("console shell: the token refresh loop", () => {
  let browser: Browser;
  let console_: Awaited<ReturnType<typeof startShellConsole>>;
  let page: Page;

  beforeAll(async () => {
    // Access tokens of 1,005 s: the loop (every 10 s, at 1,000 s or less left) refreshes soon after sign-in.
    console_ = await startShellConsole({ ESS_ACCESS_TOKEN_TTL_S: "1005", ESS_SESSION_CACHE_S: "0" });
    browser = await launchBrowser();
    page = await browser.newPage({ locale: "en-US" });
  });
  afterAll(async () => {
    await browser?.close();
    await console_?.stop();
  });

  const session = () =>
    page.evaluate(
      () => JSON.parse(sessionStorage.getItem("ess.session") ?? "{}") as { access_token: string; refresh_token: string },
    );

  it("exchanges the refresh token before the access token runs out, and the new tokens work", async () => {
    await signIn(page, console_.url);
    const before = await session();
    await expect
      .poll(async () => (await session()).access_token, { timeout: 25_000, interval: 500 })
      .not.toBe(before.access_token);
    const after = await session();
    expect(after.refresh_token).not.toBe(before.refresh_token);
    const info = await console_.runtime.app.inject({
      method: "GET",
      url: "/sys/user/info",
      headers: { authorization: `Bearer ${after.access_token}` },
    });
    expect(info.statusCode).toBe(200);
    // The console keeps working with them: a page that calls the API still opens.
    await page.goto(`${console_.url}#/info/index`);
    await page.getByTestId("info-page").waitFor();
    expect(new URL(page.url()).hash).toBe("#/info/index");
  });
});
