import { GRID_IDENTITY_DEFAULTS } from "@ess/domain";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchBrowser, screenshot } from "../src/browser.ts";
import { crudScreen } from "../src/crud-screen.ts";
import { startGridDemo } from "../src/grid-demo-fixture.ts";
import { signIn } from "../src/shell-fixture.ts";

const PEN = String(GRID_IDENTITY_DEFAULTS.pen).padStart(8, "0");

/** The "N in all" under a list, as a number (every language writes the count in digits). */
async function total(drawer: Locator): Promise<number> {
  const text =
    (await drawer
      .locator(".ant-pagination-total-text")
      .textContent()
      .catch(() => null)) ?? "";
  return Number(/\d+/.exec(text)?.[0] ?? 0);
}

/**
 * How much a list of documents shows: its rows, and in the received list the reads the first page's
 * rows stand for (a poll answered as the one before it is counted on that row, not listed again).
 */
async function shown(drawer: Locator): Promise<number> {
  const reads = await drawer.getByTestId("ieee-reads").allTextContents();
  return (await total(drawer)) + reads.reduce((sum, text) => sum + Number(text.replace(/\D/g, "")), 0);
}

/**
 * The grid connection end to end: the demo utility registers the demo fleet, and the IEEE centre
 * shows each device's NMI, LFDI and registered state, and its received and sent lists fill as
 * the polling runs — in English and Japanese.
 */
describe.skipIf(!CHROMIUM)("the demo fleet at the demo utility, in the IEEE centre", () => {
  let browser: Browser;
  let demo: Awaited<ReturnType<typeof startGridDemo>>;

  beforeAll(async () => {
    demo = await startGridDemo(3);
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await demo?.stop();
  }, 30_000);

  /** Opens a device's list of one direction, and sees it grow as polling runs, a row's XML indented. */
  async function seeFill(page: Page, sn: string, direction: "received" | "sent", locale: string) {
    const list = crudScreen(page, "ieee-devices");
    await list.row(sn).getByTestId(`ieee-devices-${direction}`).click();
    const drawer = page.getByTestId(`ieee-${direction}-page`);
    const rows = drawer.locator("tr.ant-table-row");
    await rows.first().waitFor({ timeout: 20_000 });
    expect(await total(drawer)).toBeGreaterThan(0);
    const before = await shown(drawer);
    // New documents and reads are not pushed to the page: refreshing shows them, as a user would.
    await expect
      .poll(
        async () => {
          await drawer.getByTestId(`ieee-${direction}-refresh`).click();
          return shown(drawer);
        },
        { timeout: 20_000, interval: 1000 },
      )
      .toBeGreaterThan(before);
    if (direction === "received") {
      // The type filter narrows the list to one kind of document (its long first line wraps: see the screenshot).
      await drawer.getByTestId("ieee-received-filter-resource").click();
      await page.keyboard.type("DERControlList");
      await page
        .locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option", { hasText: "DERControlList" })
        .first()
        .click();
      // The program's control list is read once the site's assignments name the program: search
      // again until it has been, as a user would.
      await expect
        .poll(
          async () => {
            await drawer.getByTestId("ieee-received-search").click();
            const texts = await rows.allTextContents();
            return texts.length > 0 && texts.every((t) => t.includes("DERControlList"));
          },
          { timeout: 30_000, interval: 1000 },
        )
        .toBe(true);
    }
    await rows.first().locator(".ant-table-row-expand-icon").click();
    const xml = page.getByTestId("ieee-xml").first();
    // Indented: an element on a line of its own, two spaces in.
    await expect.poll(() => xml.textContent()).toMatch(/^<\?xml|^</);
    expect(await xml.textContent()).toMatch(/\n {2}<[A-Za-z]/);
    if (direction === "received") {
      // The expand icon turns as the row opens: the picture is taken once it stands still.
      await page.waitForFunction(() => document.getAnimations().length === 0, null, { timeout: 3000 }).catch(() => undefined);
      await screenshot(page, `grid-demo-received-${locale}`);
    }
    await page.locator(".ant-drawer-close").click();
    await drawer.waitFor({ state: "detached" });
  }

  it.each([
    ["en-US", "Registered"],
    ["ja", "登録済み"],
  ] as const)(
    "in %s, each demo device shows its NMI, LFDI and registered state; its lists fill",
    async (locale, registered) => {
      const page = await browser.newPage({ locale, timezoneId: "Australia/Sydney", viewport: { width: 1600, height: 900 } });
      try {
        await signIn(page, demo.url);
        const list = crudScreen(page, "ieee-devices");
        await list.open(demo.url, "/aus/ieee/index");
        for (const site of demo.sites) {
          expect(site.lfdi).toMatch(/^[0-9A-F]{40}$/);
          expect(site.lfdi.endsWith(PEN)).toBe(true);
          const row = list.row(site.sn);
          // Registration and the NMI arrive as polling runs: the list is refreshed until they show.
          await expect
            .poll(
              async () => {
                await list.root.getByTestId("ieee-devices-refresh").click();
                return (await row.textContent().catch(() => "")) ?? "";
              },
              { timeout: 30_000, interval: 1000 },
            )
            .toMatch(new RegExp(`${site.nmi}.*${site.lfdi.slice(0, 8)}….*${registered}`));
          // The list shows the LFDI's head; the whole of it on hover.
          await row.getByTestId("ieee-lfdi").hover();
          await page.locator(".ant-tooltip:not(.ant-tooltip-hidden)", { hasText: site.lfdi }).waitFor();
          await page.mouse.move(0, 0);
        }
        await screenshot(page, `grid-demo-list-${locale}`);
        const [first] = demo.sites;
        if (!first) throw new Error("no demo device");
        await seeFill(page, first.sn, "received", locale);
        await seeFill(page, first.sn, "sent", locale);
      } finally {
        await page.close();
      }
    },
    120_000,
  );
});
