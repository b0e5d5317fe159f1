import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Locator, type Page } from "playwright-core";

const CANDIDATES = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

/** The Chromium the browser tests drive (Debian's package; a test tool's own download is not used). */
export const CHROMIUM = CANDIDATES.find((p): p is string => Boolean(p && existsSync(p))) ?? null;

if (!CHROMIUM) {
  const bar = "!".repeat(78);
  process.stderr.write(
    `\n${bar}\n!! No Chromium found (looked for ${CANDIDATES.filter(Boolean).join(", ")}).\n` +
      "!! The browser tests are SKIPPED, not passed. Install Debian's chromium or set CHROMIUM_PATH.\n" +
      `${bar}\n\n`,
  );
}

export const ARTIFACTS_DIR = fileURLToPath(new URL("../artifacts/", import.meta.url));

export async function launchBrowser(): Promise<Browser> {
  if (!CHROMIUM) throw new Error("no Chromium");
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    // Playwright gives every launch a new, empty profile folder of its own.
  });
}

/** Saves a screenshot under apps/e2e/artifacts/ (kept as a test artefact). */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Clicks until `done` holds (at most ten times, a second apart). A click that lands while a tab
 * bar scrolls or a drawer or submenu is still sliding in is lost; a user simply clicks again.
 */
export async function clickUntil(target: Locator, done: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    await target.click();
    for (let wait = 0; wait < 10; wait++) {
      if (await done()) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${what} did not happen after ten clicks`);
}

/** Opens an antd tab by the test id on its label and waits until it is the active one. */
export async function openTab(page: Page, testId: string): Promise<void> {
  const tab = page.locator(".ant-tabs-tab", { has: page.getByTestId(testId) });
  await clickUntil(
    page.getByTestId(testId),
    async () => (await tab.getAttribute("class"))?.includes("ant-tabs-tab-active") ?? false,
    `opening the tab ${testId}`,
  );
}
