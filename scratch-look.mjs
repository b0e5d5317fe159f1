import { chromium } from "playwright-core";
const url = "http://127.0.0.1:7210/";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless","--no-sandbox","--disable-gpu","--disable-quic","--no-first-run","--disable-background-networking","--disable-component-update","--disable-sync"] });
const page = await browser.newPage({ locale: process.env.LOC || "en-US", viewport: { width: 1400, height: 1000 } });
page.on("pageerror", (e) => console.log("PAGEERROR", e.message));
await page.goto(`${url}#/login`);
await page.getByTestId("login-username").fill("admin");
await page.getByTestId("login-password").fill("Admin12345");
await page.getByTestId("login-submit").click();
await page.waitForURL(/#\/wel\/index$/);
const steps = process.argv.slice(2);
for (const s of steps) {
  const [path, shot] = s.split("=");
  await page.goto(`${url}#${path}`);
  await page.waitForTimeout(3000);
  await page.screenshot({ path: `/tmp/settings-ui-${shot}.png`, fullPage: true });
}
const ids = await page.locator('[data-testid^="menu:"]').evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")));
console.log(ids);
await browser.close();
