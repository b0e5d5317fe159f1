import { chromium } from "playwright-core";
const url = process.env.URL ?? "http://127.0.0.1:7102/";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox"] });
const page = await browser.newPage({ locale: process.env.LOC ?? "en-US", viewport: { width: Number(process.env.W ?? 1440), height: 900 } });
page.on("console", (m) => console.log("console:", m.type(), m.text()));
page.on("pageerror", (e) => console.log("pageerror:", e.message));
await page.goto(url);
await page.getByTestId("login-username").fill("admin");
await page.getByTestId("login-password").fill("Admin12345");
await page.getByTestId("login-submit").click();
await page.waitForURL(/#\/wel\/index$/);
await page.waitForTimeout(1500);
await page.screenshot({ path: `/tmp/shell-shots/home-${process.env.W ?? 1440}.png` });
if (process.env.STEP === "info") { await page.goto(url + "#/info/index"); await page.waitForTimeout(800); await page.screenshot({ path: "/tmp/shell-shots/info.png" }); }
await browser.close();
