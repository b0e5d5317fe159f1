import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";

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
 * Opens an antd tab by the test id on its label and waits until it is the active one. A click
 * that lands while the tab bar is still scrolling an overflowing row of tabs is lost, so it is
 * clicked again until the tab shows as active (at most ten times).
 */
export async function openTab(page: Page, testId: string): Promise<void> {
  const tab = page.locator(".ant-tabs-tab", { has: page.getByTestId(testId) });
  for (let attempt = 0; attempt < 10; attempt++) {
    await page.getByTestId(testId).click();
    try {
      await page.waitForFunction((el) => el?.classList.contains("ant-tabs-tab-active"), await tab.elementHandle(), {
        timeout: 1000,
      });
      return;
    } catch {
      // Not active yet: click again.
    }
  }
  throw new Error(`the tab ${testId} did not open`);
}
