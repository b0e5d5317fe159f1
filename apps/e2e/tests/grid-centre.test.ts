import { nmiChecksum } from "@ess/domain";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchBrowser, screenshot } from "../src/browser.ts";
import { crudScreen } from "../src/crud-screen.ts";
import { signIn, startShellConsole } from "../src/shell-fixture.ts";

const AUSGRID_NMI = "4102987654";
const GOOD = `${AUSGRID_NMI}${nmiChecksum(AUSGRID_NMI)}`;
const BAD = `${AUSGRID_NMI}${(nmiChecksum(AUSGRID_NMI) + 3) % 10}`;
const XML =
  '<EndDeviceList xmlns="urn:ieee:std:2030.5:ns" all="1" results="1"><EndDevice href="/edev/3"><lFDI>ABCD</lFDI></EndDevice></EndDeviceList>';

/**
 * The IEEE device centre over rows the aggregator client would have written (seeded straight into
 * the database): the list shows NMI, LFDI and registration state; a device's received documents
 * open indented; an export asks first; an NMI with a wrong checksum is refused at its field and a
 * good one saved — in English and Chinese.
 */
describe.skipIf(!CHROMIUM)("the IEEE device centre in Chromium", () => {
  let browser: Browser;
  let console_: Awaited<ReturnType<typeof startShellConsole>>;
  const db = () => console_.runtime.db;
  const lfdiOf = (sn: string) => sn.padEnd(40, "0").replace(/[^0-9A-F]/g, "A");

  const seed = async (sn: string) => {
    const device = await db().query<{ id: number }>(
      "INSERT INTO device (tenant_id, sn, name, country_code, nmi, grid_company) VALUES (1, $1, $1, 3, '4102000000', 'Ausgrid') RETURNING id",
      [sn],
    );
    const site = await db().query<{ id: number }>(
      "INSERT INTO grid_site (tenant_id, device_id, lfdi, sfdi, registered_state) VALUES (1, $1, $2, '123456789', 1) RETURNING id",
      [device.rows[0]?.id, lfdiOf(sn)],
    );
    const siteId = site.rows[0]?.id;
    await db().query(
      `INSERT INTO grid_exchange (tenant_id, site_id, direction, method, path, status, resource, body, at)
       VALUES (1, $1, 1, 'GET', '/edev', 200, 'EndDeviceList', $2, '2026-11-01T10:00:00Z')`,
      [siteId, XML],
    );
    await db().query(
      "INSERT INTO grid_command (tenant_id, site_id, mrid, kind, mode, event_status) VALUES (1, $1, 'E2EMRID', 1, 1, 1)",
      [siteId],
    );
  };

  beforeAll(async () => {
    console_ = await startShellConsole();
    await seed("IEEEE2E01");
    await seed("IEEEE2E02");
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await console_?.stop();
  });

  const open = async (locale: string): Promise<Page> => {
    const page = await browser.newPage({ locale, timezoneId: "Australia/Sydney", viewport: { width: 1600, height: 900 } });
    await signIn(page, console_.url);
    return page;
  };

  it.each([
    ["en-US", "IEEEE2E01", "Registered", "Export the 1 records", "checksum", "Sell", "Active"],
    ["zh-CN", "IEEEE2E02", "已注册", "确定导出当前筛选的 1 条记录", "校验位", "卖电", "执行中"],
  ] as const)(
    "in %s, lists, shows XML, asks before exporting and checks the NMI, commands named",
    async (locale, sn, state, question, refusal, mode, status) => {
      const page = await open(locale);
      const list = crudScreen(page, "ieee-devices");
      await list.open(console_.url, "/aus/ieee/index");
      const row = list.row(sn);
      await expect.poll(() => row.textContent()).toContain("4102000000");
      expect(await row.textContent()).toContain(lfdiOf(sn));
      expect(await row.textContent()).toContain(state);

      // The received list: its row opens the document, indented, in a fixed-width font.
      await row.getByTestId("ieee-devices-received").click();
      const drawer = page.getByTestId("ieee-received-page");
      await drawer.locator("tr.ant-table-row", { hasText: "/edev" }).waitFor();
      await drawer.locator("tr.ant-table-row .ant-table-row-expand-icon").first().click();
      const xml = page.getByTestId("ieee-xml");
      await expect.poll(() => xml.textContent()).toContain('\n  <EndDevice href="/edev/3">\n    <lFDI>ABCD</lFDI>');
      expect(await xml.evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/mono|Consolas|Menlo/i);

      // Exporting asks first; cancelling downloads nothing, confirming downloads the workbook.
      await page.getByTestId("ieee-received-export").click();
      const confirmation = page.locator(".ant-modal-confirm").last();
      await expect.poll(() => confirmation.textContent()).toContain(question);
      let downloads = 0;
      page.on("download", () => downloads++);
      await page.waitForFunction(() => !document.querySelector(".ant-modal-confirm[class*='ant-zoom']"));
      await confirmation.locator(".ant-modal-confirm-btns button").first().click();
      await page.locator(".ant-modal-confirm").waitFor({ state: "detached" });
      expect(downloads).toBe(0);
      await page.getByTestId("ieee-received-export").click();
      await page.waitForFunction(() => !document.querySelector(".ant-modal-confirm[class*='ant-zoom']"));
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.locator(".ant-modal-confirm-btns button").last().click(),
      ]);
      expect(download.suggestedFilename()).toBe(`ieee-received-${sn}.xlsx`);
      await screenshot(page, `grid-centre-received-${locale}`);
      await page.locator(".ant-drawer-close").click();
      await drawer.waitFor({ state: "detached" });

      // Command records: kinds, modes and statuses named; their export asks first too (spec §8).
      await row.getByTestId("ieee-devices-commands").click();
      const commands = page.getByTestId("ieee-commands-page").locator("tr.ant-table-row", { hasText: "E2EMRID" });
      await expect.poll(() => commands.textContent()).toContain(mode);
      expect(await commands.textContent()).toContain(status);
      await page.getByTestId("ieee-commands-export").click();
      await expect.poll(() => page.locator(".ant-modal-confirm").last().textContent()).toContain(question);
      await page.waitForFunction(() => !document.querySelector(".ant-modal-confirm[class*='ant-zoom']"));
      await page.locator(".ant-modal-confirm-btns button").first().click();
      await page.locator(".ant-modal-confirm").waitFor({ state: "detached" });
      await page.locator(".ant-drawer-close").click();
      await page.getByTestId("ieee-commands-page").waitFor({ state: "detached" });

      // The NMI: a wrong checksum is refused at its field, a good one saved with the network.
      await list.rowAction(sn, "editGrid");
      await page.getByTestId("ieee-devices-editGrid-dialog").waitFor();
      await list.fill({ nmi: BAD });
      await list.save();
      await expect.poll(() => list.fieldError("nmi")).toContain(refusal);
      await list.fill({ nmi: GOOD });
      await list.choose("powerGrid", "Ausgrid");
      await list.save();
      await list.dialogGone();
      const stored = await db().query<{ nmi: string; grid_company: string }>(
        "SELECT nmi, grid_company FROM device WHERE sn = $1",
        [sn],
      );
      expect(stored.rows[0]).toEqual({ nmi: GOOD, grid_company: "Ausgrid" });
      await expect.poll(() => row.textContent()).toContain(GOOD);
      await screenshot(page, `grid-centre-list-${locale}`);
      await page.close();
    },
  );
});
