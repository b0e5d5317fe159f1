import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchBrowser, screenshot } from "../src/browser.ts";
import { crudScreen } from "../src/crud-screen.ts";
import { ADMIN_PASSWORD, signIn, startShellConsole } from "../src/shell-fixture.ts";

/**
 * The FAQ from the staff side: a classification and a problem written in Chinese and English on
 * the console in English, the problem edited again by a Chinese-speaking colleague, and what the
 * app reads in each language; a classification that still has problems is not deleted.
 */
describe.skipIf(!CHROMIUM)("FAQ editing in two languages, in Chromium", () => {
  let browser: Browser;
  let console_: Awaited<ReturnType<typeof startShellConsole>>;

  const open = async (locale: string): Promise<Page> => {
    const page = await browser.newPage({ locale, timezoneId: "UTC", viewport: { width: 1400, height: 1100 } });
    await signIn(page, console_.url);
    return page;
  };
  /** The app's token (any signed-in account reads the app routes). */
  let token = "";
  const appRead = async <T>(url: string, language: string) => {
    const r = await console_.runtime.app.inject({
      method: "GET",
      url,
      headers: { authorization: `Bearer ${token}`, "accept-language": language },
    });
    return r.json().data as T;
  };
  /** What the app shows: the classifications, then each one's shown problems (first page). */
  const appFaq = async (language: string) => {
    type Page<R> = { records: R[] };
    const classes = await appRead<Page<{ id: number; name: string }>>("/app/faq", language);
    return Promise.all(
      classes.records.map(async (c) => ({
        name: c.name,
        problems: (await appRead<Page<{ title: string }>>(`/app/faq/problems?classificationId=${c.id}`, language)).records,
      })),
    );
  };
  const confirmation = (page: Page) => page.locator(".ant-modal-confirm").last();

  beforeAll(async () => {
    console_ = await startShellConsole();
    token = await console_.tokenFor("admin", ADMIN_PASSWORD);
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await console_?.stop();
  });

  it("writes a classification and a problem in Chinese and English, and the app reads each language", async () => {
    const page = await open("en-US");
    const classes = crudScreen(page, "faq-classes");
    await classes.open(console_.url, "/content/faq-class/index");
    await classes.create();
    await classes.fill({ "name.en-US": "Battery", summary: "Questions about the battery" });
    await classes.save();
    await expect.poll(() => classes.fieldError("name.zh-CN")).toBe("Name (Chinese) is required");
    await classes.fill({ "name.zh-CN": "电池" });
    await expect.poll(() => classes.fieldError("name.zh-CN")).toBeNull();
    await classes.save();
    await classes.dialogGone();
    await expect.poll(() => classes.row("Battery").isVisible()).toBe(true);

    const problems = crudScreen(page, "faq-problems");
    await problems.open(console_.url, "/content/faq/index");
    await problems.create();
    await problems.choose("classificationId", "Battery");
    await problems.fill({
      "title.zh-CN": "电池不充电",
      "title.en-US": "The battery does not charge",
      "content.zh-CN": "请检查充电开关。",
      "content.en-US": "Check the charge switch.",
    });
    await problems.save();
    await problems.dialogGone();
    await expect.poll(() => problems.row("The battery does not charge").isVisible()).toBe(true);
    await screenshot(page, "content-faq-problems-en-US");
    await page.close();

    expect(await appFaq("en-US")).toEqual([
      expect.objectContaining({ name: "Battery", problems: [expect.objectContaining({ title: "The battery does not charge" })] }),
    ]);
    expect((await appFaq("zh-CN"))[0]?.problems[0]?.title).toBe("电池不充电");
  });

  it("lets a Chinese-speaking colleague edit the Chinese text, and refuses in Chinese to delete a classification with problems", async () => {
    const page = await open("zh-CN");
    const problems = crudScreen(page, "faq-problems");
    await problems.open(console_.url, "/content/faq/index");
    await expect.poll(() => problems.row("电池不充电").isVisible()).toBe(true);
    await problems.rowAction("电池不充电", "edit");
    await page.getByTestId("faq-problems-edit-dialog-title.zh-CN").fill("电池无法充电");
    await problems.save();
    await problems.dialogGone();
    await expect.poll(() => problems.row("电池无法充电").isVisible()).toBe(true);
    expect((await appFaq("zh-CN"))[0]?.problems[0]?.title).toBe("电池无法充电");
    expect((await appFaq("en-US"))[0]?.problems[0]?.title).toBe("The battery does not charge");

    const classes = crudScreen(page, "faq-classes");
    await classes.open(console_.url, "/content/faq-class/index");
    await expect.poll(() => classes.row("电池").isVisible()).toBe(true);
    await classes.row("电池").getByTestId("faq-classes-delete").click();
    await expect.poll(() => confirmation(page).textContent()).toContain("删除分类“电池”？");
    await page.waitForFunction(() => !document.querySelector(".ant-modal-confirm[class*='ant-zoom']"));
    await confirmation(page).locator(".ant-btn-primary").click();
    await expect
      .poll(() => page.locator(".ant-message").textContent())
      .toContain("该分类下还有 1 个问题，不能删除；请先删除或移走这些问题");
    await expect.poll(() => page.locator(".ant-modal-confirm:visible").count()).toBe(0);
    await screenshot(page, "content-faq-delete-refused-zh-CN");
    expect(await classes.row("电池").isVisible()).toBe(true);
    await page.close();
  });

  it("adds a residence under a region only one grade below it, and keeps a region with children", async () => {
    const page = await open("en-US");
    const regions = crudScreen(page, "regions");
    await regions.open(console_.url, "/content/region/index");
    // New South Wales and what lies in it, found by its code.
    await page.getByTestId("regions-filter-keyword").fill("AU-NSW");
    await page.getByTestId("regions-search").click();
    await expect.poll(() => regions.row("AU-NSW-SYD").isVisible()).toBe(true);
    await regions.create();
    await regions.choose("grade", "Region");
    await regions.choose("parentId", "New South Wales");
    await regions.fill({ code: "AU-NSW-NEW", "name.zh-CN": "纽卡斯尔", "name.en-US": "Newcastle" });
    await regions.save();
    await expect.poll(() => regions.fieldError("grade")).toBe("The address grade must be one below its parent’s");
    await regions.choose("grade", "Residence");
    await regions.save();
    await regions.dialogGone();
    await expect.poll(() => regions.row("AU-NSW-NEW").isVisible()).toBe(true);
    expect(await regions.row("AU-NSW-NEW").textContent()).toContain("New South Wales");

    await regions.row("AU-NSW").first().getByTestId("regions-delete").click();
    await page.waitForFunction(() => !document.querySelector(".ant-modal-confirm[class*='ant-zoom']"));
    await confirmation(page).locator(".ant-btn-primary").click();
    await expect
      .poll(() => page.locator(".ant-message").textContent())
      .toContain("This region still has 2 sub-region(s) and cannot be deleted");
    await expect.poll(() => page.locator(".ant-modal-confirm:visible").count()).toBe(0);
    await screenshot(page, "content-regions-en-US");
    await page.close();
  });
});
