import { GRID_DIRECTIONS, nmiChecksum } from "@ess/domain";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchBrowser, screenshot } from "../src/browser.ts";
import { crudScreen } from "../src/crud-screen.ts";
import { signIn, startShellConsole } from "../src/shell-fixture.ts";

const AUSGRID_NMI = "4102987654";
const GOOD = `${AUSGRID_NMI}${nmiChecksum(AUSGRID_NMI)}`;
const BAD = `${AUSGRID_NMI}${(nmiChecksum(AUSGRID_NMI) + 3) % 10}`;
// A serial number as wide as the demo fleet's (ESSDEMO00001): wide capitals.
const WIDE = "ESSDEMO99001";
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

  /**
   * A device with every cell as full as it gets: the longest network name, a control in force with
   * two limits until a date, applied commands of every mode, a last command time.
   */
  const seedWide = async (sn: string) => {
    await seed(sn);
    // Its list read unchanged every minute for the thirty days the documents are kept.
    await db().query(
      `UPDATE grid_exchange SET reads = 43200, last_at = at + interval '30 days'
         WHERE site_id = (SELECT s.id FROM grid_site s JOIN device d ON d.id = s.device_id WHERE d.sn = $1)`,
      [sn],
    );
    await db().query("UPDATE device SET grid_company = 'Power and Water Corporation', online_status = 2 WHERE sn = $1", [sn]);
    await db().query(
      `UPDATE grid_site SET registered_state = 2, last_command_at = now(), active_control = $2, active_source = $3, active_since = now(),
              active_until = now() + interval '3 days'
         WHERE device_id = (SELECT id FROM device WHERE sn = $1)`,
      [
        sn,
        { opModExpLimW: { value: 15, multiplier: 2 }, opModGenLimW: { value: 50, multiplier: 2 } },
        {
          kind: "event",
          mrid: "E2EWIDEMRID0000000000000000000001",
          programMrid: "E2EWIDEPROGRAM0000000000000000001",
          primacy: 1,
        },
      ],
    );
    // Commands of every mode, each cell at its longest: 32-digit mRIDs, a default control, the
    // longest event and response statuses, times and a duration.
    await db().query(
      `INSERT INTO grid_command (tenant_id, site_id, mrid, program_mrid, primacy, kind, mode, start_at, duration_s,
                                 event_status, response_status, applied_at)
         SELECT 1, s.id, 'E2EWIDE' || m || repeat('0', 24), 'E2EWIDEPROGRAM' || repeat('0', 18), 1, 2, m, now(), 86400,
                3, 8, now()
           FROM grid_site s JOIN device d ON d.id = s.device_id, generate_series(0, 3) m WHERE d.sn = $1`,
      [sn],
    );
    // A response posted for one of them, for the trail.
    await db().query(
      `INSERT INTO grid_exchange (tenant_id, site_id, direction, method, path, status, resource, body, at)
         SELECT 1, s.id, ${GRID_DIRECTIONS.sent}, 'POST', '/rsps/1/rsp', 201, 'DERControlResponse', $2, now()
           FROM grid_site s JOIN device d ON d.id = s.device_id WHERE d.sn = $1`,
      [sn, `<DERControlResponse><status>8</status><subject>E2EWIDE1${"0".repeat(24)}</subject></DERControlResponse>`],
    );
  };

  beforeAll(async () => {
    console_ = await startShellConsole();
    await seed("IEEEE2E01");
    await seed("IEEEE2E02");
    await seedWide(WIDE);
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
      // The LFDI's head in the row, the whole of it on hover.
      expect(await row.textContent()).toContain(`${lfdiOf(sn).slice(0, 8)}…`);
      expect(await row.textContent()).not.toContain(lfdiOf(sn));
      await row.getByTestId("ieee-lfdi").hover();
      await page.locator(".ant-tooltip:not(.ant-tooltip-hidden)", { hasText: lfdiOf(sn) }).waitFor();
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
      await list.menuAction(sn, "commands");
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
      await list.menuAction(sn, "editGrid");
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

  /**
   * A table's scroll box and the page against the window; each column header's box and whether its
   * label is whole (not cut, no word broken across lines: CJK text may break anywhere); whether
   * each row's first cell (the serial number) is whole.
   */
  const layout = (page: Page, id: string) =>
    page.evaluate((id) => {
      const table = document.querySelector(`[data-testid="${id}-table"]`);
      const scroller = table?.querySelector(".ant-table-content, .ant-table-body");
      if (!table || !scroller) throw new Error(`no table ${id}`);
      const box = scroller.getBoundingClientRect();
      const probe = document.createElement("span");
      probe.style.cssText = "position: absolute; visibility: hidden; white-space: nowrap";
      document.body.append(probe);
      const whole = (el: Element) => {
        const style = getComputedStyle(el);
        probe.style.font = style.font;
        const room = el.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
        const words = (el.textContent ?? "").split(/\s+/).filter((w) => w && !/[\u3000-\u9fff\uff00-\uffef]/.test(w));
        const widest = Math.max(
          0,
          ...words.map((w) => {
            probe.textContent = w;
            return probe.getBoundingClientRect().width;
          }),
        );
        // An ellipsis shows at the least overflow: no rounding allowed.
        return el.scrollWidth <= el.clientWidth && widest <= room + 0.5;
      };
      const headers = [...table.querySelectorAll("thead th")]
        .filter((th) => !th.matches(".ant-table-cell-scrollbar, .ant-table-row-expand-icon-cell"))
        .map((th) => {
          const r = th.getBoundingClientRect();
          return {
            text: th.textContent?.trim() ?? "",
            // Wholly inside the table's box and the window, its label whole.
            shown:
              r.width > 0 &&
              r.left >= box.left - 1 &&
              r.right <= Math.min(box.right, window.innerWidth) + 1 &&
              whole(th.querySelector(".ant-table-column-title") ?? th),
          };
        });
      // A cell's words (in their own font) outside what is cut on purpose (an ellipsis, whole in its title).
      const plainWords = (td: Element) => {
        const words: { word: string; font: string }[] = [];
        const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          let cut = false;
          for (let at = node.parentElement; at && at !== td.parentElement; at = at.parentElement)
            if (getComputedStyle(at).textOverflow === "ellipsis") cut = true;
          const font = getComputedStyle(node.parentElement ?? td).font;
          if (!cut) for (const word of (node.textContent ?? "").split(/\s+/)) words.push({ word, font });
        }
        return words.filter(({ word }) => word && !/[\u3000-\u9fff\uff00-\uffef]/.test(word));
      };
      const cutCells = [...table.querySelectorAll("tr.ant-table-row td")]
        .filter((td) => {
          const style = getComputedStyle(td);
          if (style.textOverflow !== "ellipsis" && td.scrollWidth > td.clientWidth) return true;
          const room = td.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
          return plainWords(td).some(({ word, font }) => {
            probe.style.font = font;
            probe.textContent = word;
            return probe.getBoundingClientRect().width > room + 0.5;
          });
        })
        .map((td) => td.textContent);
      const cutFirstCells = [...table.querySelectorAll("tr.ant-table-row td:first-child")]
        .filter((td) => !whole(td.firstElementChild ?? td))
        .map((td) => td.textContent);
      probe.remove();
      return {
        pageOverflow: document.documentElement.scrollWidth - window.innerWidth,
        tableOverflow: scroller.scrollWidth - scroller.clientWidth,
        headers,
        cutCells,
        cutFirstCells,
      };
    }, id);

  /** No sideways scrolling of the page nor of the table, every column's header named, whole and in view. */
  const expectFits = async (page: Page, id: string, columns: number) => {
    const seen = await layout(page, id);
    expect(seen.headers.filter((h) => !h.shown || h.text === "")).toEqual([]);
    expect(seen.headers).toHaveLength(columns);
    expect(seen.cutFirstCells).toEqual([]);
    expect(seen.cutCells).toEqual([]);
    expect(seen.tableOverflow).toBeLessThanOrEqual(0);
    expect(seen.pageOverflow).toBeLessThanOrEqual(0);
  };

  it.each(["en-US", "it", "es", "ja", "zh-CN"])(
    "in %s at 1600 × 900, the centre's lists fit the window with every column; at 1280 the page still does",
    async (locale) => {
      const page = await open(locale);
      try {
        const list = crudScreen(page, "ieee-devices");
        await list.open(console_.url, "/aus/ieee/index");
        await expect.poll(() => list.row(WIDE).textContent()).toContain("Power and Water Corporation");
        // Measured and pictured once loaded and still (the page fades in).
        await list.root.locator(".ant-spin-blur").waitFor({ state: "detached" });
        await page.waitForFunction(() => document.getAnimations().length === 0);
        // SN, NMI, LFDI, grid company, registration, online, last command, mode counts, control in
        // force, created / updated, actions: none dropped to make room.
        await screenshot(page, `grid-centre-width-${locale}-1600`);
        await expectFits(page, "ieee-devices", 11);

        // The drawers' lists: every site's command records (the widest), a device's documents, its trail.
        const drawers = [
          [page.getByTestId("ieee-devices-all-commands"), "ieee-all-commands", 11],
          [list.row(WIDE).getByTestId("ieee-devices-received"), "ieee-received", 7],
          [list.row(WIDE).getByTestId("ieee-devices-controls"), "ieee-responses", 6],
        ] as const;
        for (const [button, id, columns] of drawers) {
          await button.click();
          await page.getByTestId(`${id}-table`).locator("tr.ant-table-row").first().waitFor();
          // The drawer slides in: measured once it stands still.
          await page.waitForFunction(() => document.getAnimations().length === 0);
          await screenshot(page, `grid-centre-width-${locale}-${id}`);
          await expectFits(page, id, columns);
          await page.locator(".ant-drawer-close").click();
          await page.getByTestId(`${id}-page`).waitFor({ state: "detached" });
        }

        // Narrower, the device table may scroll inside itself, the page not.
        await page.setViewportSize({ width: 1280, height: 900 });
        await expect.poll(async () => (await layout(page, "ieee-devices")).pageOverflow).toBeLessThanOrEqual(0);
        await screenshot(page, `grid-centre-width-${locale}-1280`);
      } finally {
        await page.close();
      }
    },
  );
});
