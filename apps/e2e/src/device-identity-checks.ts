import { request } from "node:http";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { ARTIFACTS_DIR, screenshot } from "./browser.ts";
import { ADMIN_PASSWORD } from "./shell-fixture.ts";

/**
 * Checks of a device's identity, tabs and layout in the browser (issue 17), run by the device
 * management tests on their console: what the demo device says of itself in the list and header,
 * found by the model filter; a registered device that never reported shows what staff typed; two
 * open devices told apart by their tabs; a device's day on its own clock; the top bar and a long
 * form's actions in view.
 */
export type Lang = "zh-CN" | "en-US";
/** What a user reads, per language. */
const WORDS = {
  "zh-CN": { details: "设备详情", germany: "德国", lithium: "锂电池", settings: "设备设置" },
  "en-US": { details: "Device details", germany: "Germany", lithium: "Lithium battery", settings: "Device settings" },
} as const;
/** One date-time format per language (apps/web/src/ui/format/date-patterns.ts). */
const DATE_TIME = { "zh-CN": /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/, "en-US": /^\d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d$/ } as const;

export interface Reported {
  id: number;
  model: string;
  ratedPower: number;
}

/**
 * Signs in through the console's HTTP API from 127.0.0.2, an address of its own: the browser's
 * sign-in as the same account from 127.0.0.1 a moment later is then not the same caller repeating
 * the same change, which the console refuses as too frequent.
 */
function apiSignIn(url: string, username: string, password: string): Promise<string> {
  const body = JSON.stringify({ username, password });
  return new Promise((resolve, reject) => {
    const sent = request(
      new URL("/login?grant_type=admin", url),
      { method: "POST", localAddress: "127.0.0.2", headers: { "content-type": "application/json" }, timeout: 30_000 },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const token = (JSON.parse(text) as { data: { access_token: string } | null }).data?.access_token;
          if (token) resolve(token);
          else reject(new Error(`sign-in of ${username} failed: ${text}`));
        });
      },
    );
    sent.on("timeout", () => sent.destroy(new Error("sign-in timed out")));
    sent.on("error", reject);
    sent.end(body);
  });
}

/** The console's API as the administrator (for ids and the device's own pages). */
export async function adminApi(url: string) {
  const token = await apiSignIn(url, "admin", ADMIN_PASSWORD);
  const get = async <T>(path: string): Promise<T> => {
    const answer = (await (await fetch(new URL(path, url), { headers: { authorization: `Bearer ${token}` } })).json()) as {
      code: number;
      msg: string;
      data: T;
    };
    if (answer.code !== 0) throw new Error(`${path}: ${answer.msg}`);
    return answer.data;
  };
  return {
    get,
    idOf: async (sn: string) =>
      (await get<{ records: { id: number }[] }>(`/admin/lsydevice/page?sn=${sn}`)).records[0]?.id as number,
    /** What a device reports on its own pages, read live from it: device information (46), master-control data (42). */
    async reportedBy(sn: string): Promise<Reported> {
      const id = (await get<{ records: { id: number }[] }>(`/admin/lsydevice/page?sn=${sn}`)).records[0]?.id as number;
      await expect
        .poll(async () => (await get<{ onlineStatus: number }>(`/admin/lsydevice/info?id=${id}`)).onlineStatus, {
          timeout: 30_000,
        })
        .toBe(1);
      const info = await get<{ values: Record<string, string> }>(`/admin/param/set/obtain?deviceId=${id}&val=46`);
      const control = await get<{ values: Record<string, number> }>(`/admin/param/set/obtain?deviceId=${id}&val=42`);
      return { id, model: String(info.values.TP_0X04_32780_32787).trim(), ratedPower: Number(control.values.TP_0X04_1037) };
    },
  };
}

const rows = (page: Page) => page.getByTestId("devices-table").locator("tbody tr.ant-table-row");
const row = (page: Page, sn: string) => rows(page).filter({ hasText: sn });

/**
 * The list and the header of `reported` (the three-phase demo device in Munich) show its model,
 * rated power, country and battery as it reports them; the model filter finds it and nothing
 * else; `typed` (registered with model H3-20K, never connected) shows its typed model, marked so.
 */
export async function identityInListAndHeader(
  page: Page,
  url: string,
  lang: Lang,
  reported: Reported,
  typed: { sn: string; id: number },
) {
  expect(reported.model).toMatch(/^H3-\d+K$/);
  await page.goto(`${url}#/device/list/index`);
  const demo = row(page, "ESSDEMO00002");
  // The battery type is a setting: the console asks the device for it soon after it connects.
  await expect
    .poll(
      async () => {
        await page.getByTestId("devices-search").click();
        return demo.textContent();
      },
      { timeout: 30_000, interval: 2000 },
    )
    .toContain(WORDS[lang].lithium);
  const text = (await demo.textContent()) ?? "";
  expect(text).toContain(reported.model);
  expect(text).toContain(WORDS[lang].germany);
  expect(await demo.locator("td").allTextContents()).toContain(String(reported.ratedPower));
  // The single-phase demo device is known by its rated power.
  expect(await row(page, "ESSDEMO00001").textContent()).toMatch(/H[56]K/);

  await page.getByTestId("devices-filter-model").click();
  await page.keyboard.type(reported.model);
  await page
    .locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option", { hasText: reported.model })
    .first()
    .click();
  await page.getByTestId("devices-search").click();
  await expect.poll(async () => (await rows(page).allTextContents()).join("|")).not.toContain("ESSDEMO00001");
  const found = (await rows(page).allTextContents()).join("|");
  expect(found).toContain("ESSDEMO00002");
  if (reported.model !== "H3-20K") expect(found).not.toContain(typed.sn);
  await screenshot(page, `device-identity-list-${lang}`);

  await demo.getByTestId("device-link-ESSDEMO00002").click();
  await page.getByTestId("device-details").waitFor();
  const model = page.getByTestId("device-model");
  await expect.poll(() => model.textContent()).toBe(reported.model);
  expect(await model.getAttribute("data-source")).toBe("device");
  expect(await page.getByTestId("device-rated-power").textContent()).toBe(String(reported.ratedPower));
  expect(await page.getByTestId("device-country").textContent()).toBe(WORDS[lang].germany);
  expect(await page.getByTestId("device-battery-chemistry").textContent()).toBe(WORDS[lang].lithium);
  // The installation time, in the language's one date-time format.
  expect(await page.getByTestId("device-header").locator(".ant-descriptions-item-content").last().textContent()).toMatch(
    DATE_TIME[lang],
  );
  await screenshot(page, `device-identity-header-${lang}`);

  await page.goto(`${url}#/device/details/${typed.id}`);
  await expect.poll(() => page.getByTestId("device-model").textContent()).toBe("H3-20K");
  expect(await page.getByTestId("device-model").getAttribute("data-source")).toBe("registration");
}

/** Two devices' details open side by side: their tabs and the page title say which is which. */
export async function tabsByDevice(
  page: Page,
  url: string,
  lang: Lang,
  first: { id: number; name: string },
  second: { id: number; name: string },
) {
  for (const device of [first, second]) {
    await page.goto(`${url}#/device/details/${device.id}`);
    await page.getByTestId("device-title").waitFor();
  }
  const details = WORDS[lang].details;
  await expect
    .poll(() => page.getByTestId("tab").allTextContents())
    .toEqual(expect.arrayContaining([`${first.name} · ${details}`, `${second.name} · ${details}`]));
  expect(await page.title()).toBe(`${second.name} · ${details}`);
  await page.goto(`${url}#/device/settings/${first.id}`);
  await expect.poll(() => page.title()).toBe(`${first.name} · ${WORDS[lang].settings}`);
  await screenshot(page, `device-identity-tabs-${lang}`);
}

/**
 * On a page whose browser is in New York (six hours behind Munich): the device's statistics day is
 * Munich's, its curve's times Munich's, labelled so; settings pages are not data tabs as well; and
 * scrolled into a long settings form, the top bar and tabs stay at the top and Save at the bottom.
 */
export async function deviceDayAndLayout(page: Page, url: string, reported: Reported) {
  await page.goto(`${url}#/device/details/${reported.id}`);
  await page.getByTestId("device-details").waitFor();
  const tabNames = await page.getByTestId("device-tabs").locator(".ant-tabs-tab").allTextContents();
  expect(tabNames).toEqual(expect.arrayContaining(["Device settings", "Device information"]));
  for (const settingsPage of ["Monitor settings", "Master-control user settings"]) expect(tabNames).not.toContain(settingsPage);

  await page.getByTestId("device-tabs").locator('[data-node-key="statistics"]').click();
  await expect
    .poll(() => page.getByTestId("statistics-zone").textContent())
    .toBe("Days and times in the device's time zone (Europe/Berlin)");
  const munich = (options: Intl.DateTimeFormatOptions, locale = "en-US") =>
    new Intl.DateTimeFormat(locale, { timeZone: "Europe/Berlin", ...options }).format(new Date());
  const date = page.locator('input[data-testid="statistics-date"], [data-testid="statistics-date"] input');
  expect(await date.inputValue()).toBe(munich({ year: "numeric", month: "2-digit", day: "2-digit" }));
  await page.getByTestId("statistics-as").getByText("Table", { exact: true }).click();
  const table = page.getByTestId("statistics-table-day");
  await expect.poll(() => table.locator("tbody tr.ant-table-row").count(), { timeout: 20_000 }).toBeGreaterThan(0);
  const minutes = (hm: string) => Number(hm.slice(0, 2)) * 60 + Number(hm.slice(3, 5));
  const latest = Math.max(...(await table.locator("tbody tr.ant-table-row td:first-child").allTextContents()).map(minutes));
  // The newest reading's time is Munich's now (give or take the curve's steps), not New York's.
  expect(
    Math.abs(minutes(munich({ hour: "2-digit", minute: "2-digit", hourCycle: "h23" }, "en-GB")) - latest),
  ).toBeLessThanOrEqual(20);

  await page.getByTestId("device-tabs").locator('[data-node-key="settings"]').click();
  const form = page.getByTestId("settings-form-47");
  await form.locator(".ant-form-item").nth(12).waitFor();
  await page.mouse.wheel(0, 500);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
  const height = page.viewportSize()?.height ?? 0;
  expect((await page.getByTestId("top-area").boundingBox())?.y).toBe(0);
  expect(await page.getByTestId("tab-bar").isVisible()).toBe(true);
  // The form goes on below the window's edge; its actions are in view nevertheless, at the bottom.
  const formBox = await form.boundingBox();
  expect((formBox?.y ?? 0) + (formBox?.height ?? 0)).toBeGreaterThan(height + 200);
  const actions = await page.getByTestId("settings-actions").boundingBox();
  expect((actions?.y ?? 0) + (actions?.height ?? 0)).toBeLessThanOrEqual(height + 1);
  expect(actions?.y ?? 0).toBeGreaterThan(height / 2);
  // As the window shows it (a full-page picture would lay the sticky parts out along the page).
  await page.screenshot({ path: join(ARTIFACTS_DIR, "device-identity-sticky-en-US.png") });
}
