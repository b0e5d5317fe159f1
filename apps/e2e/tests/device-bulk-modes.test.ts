import { tempDataDir } from "@ess/server/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchBrowser, openTab, screenshot } from "../src/browser.ts";
import { crudScreen } from "../src/crud-screen.ts";
import { runDemoFleet } from "../src/demo-fleet-fixture.ts";
import { signIn, startShellConsole } from "../src/shell-fixture.ts";

const OFFLINE_SN = "ESSOFF0001";

/**
 * The console parts of remote settings reached from the menu: a bulk command and a bulk setting to
 * simulated devices with each device's outcome on screen, mode management with periods that must
 * cover the day, and the display configuration hiding a field from the audience it concerns.
 */
describe.skipIf(!CHROMIUM)("bulk operations, modes and display configuration in Chromium", () => {
  let browser: Browser;
  let console_: Awaited<ReturnType<typeof startShellConsole>>;
  let simulator: { stop(): Promise<void> } | undefined;
  /** Demo devices by serial number, with their phase type. */
  const devices = new Map<string, { id: number; phase: number }>();

  const db = () => console_.runtime.db;
  const open = async (locale: string, path: string): Promise<Page> => {
    const page = await browser.newPage({ locale, timezoneId: "UTC", viewport: { width: 1400, height: 1100 } });
    await signIn(page, console_.url);
    await page.goto(`${console_.url}#${path}`);
    return page;
  };
  /** Picks a choice of a select by its visible label, typed first as a user would in a long list. */
  const choose = async (page: Page, testId: string, label: string) => {
    await page.getByTestId(testId).click();
    await page.keyboard.type(label);
    await page
      .locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option", { hasText: label })
      .first()
      .click();
  };
  /** Opens a screen from the side menu's device group. */
  const fromMenu = async (page: Page, path: string) => {
    const item = page.getByTestId(`menu:${path}`);
    if (!(await item.isVisible())) await page.getByTestId("menu:/device").click();
    await item.click();
  };
  const tick = (page: Page, sn: string) =>
    page.getByTestId("bulk-devices-table").locator("tr", { hasText: sn }).locator("input[type=checkbox]").check();
  const stateOf = (page: Page, sn: string) => page.getByTestId(`bulk-state-${sn}`).textContent();
  const reasonOf = (page: Page, sn: string) =>
    page.getByTestId("bulk-outcome-table").locator("tr", { hasText: sn }).locator("td").nth(2).textContent();
  const bulkCount = async () =>
    (await db().query<{ n: number }>("SELECT count(*)::int AS n FROM device_bulk_operation")).rows[0]?.n ?? 0;
  const confirm = async (page: Page, question: string) => {
    await expect.poll(() => page.locator(".ant-modal-confirm-title").textContent()).toBe(question);
    await page.getByTestId("bulk-confirm-ok").click();
  };

  beforeAll(async () => {
    const dataDir = tempDataDir("ess-e2e-bulk-");
    console_ = await startShellConsole({ DATA_DIR: dataDir });
    simulator = await runDemoFleet({ url: console_.url, brokerUrl: console_.runtime.brokerUrl, dataDir }, 4);
    for (let i = 0; i < 200; i++) {
      const { rows } = await db().query<{ id: number; sn: string; phase: number }>(
        "SELECT id, sn, phase_type AS phase FROM device WHERE online_status = 1",
      );
      if (rows.length === 4) {
        for (const r of rows) devices.set(r.sn, { id: r.id, phase: r.phase });
        break;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    if (devices.size !== 4) throw new Error("the demo fleet did not come online");
    // A registered three-phase device that never connects.
    await db().query("INSERT INTO device (tenant_id, sn, name, phase_type, time_zone) VALUES (1, $1, 'Away', 2, 'UTC')", [
      OFFLINE_SN,
    ]);
    browser = await launchBrowser();
  }, 150_000);
  afterAll(async () => {
    await browser?.close();
    await simulator?.stop();
    await console_?.stop();
  });

  const threePhase = () => [...devices].filter(([, d]) => d.phase === 2).map(([sn]) => sn);
  const singlePhase = () => [...devices].filter(([, d]) => d.phase === 1).map(([sn]) => sn);

  it("sends a command to the chosen devices from the menu's bulk screen and shows each device's outcome", async () => {
    const page = await open("en-US", "/wel/index");
    await fromMenu(page, "/device/bulk");
    await page.getByTestId("bulk-page").waitFor();
    const [single] = singlePhase();
    const [three] = threePhase();
    for (const sn of [single, three, OFFLINE_SN] as string[]) await tick(page, sn);
    expect(await page.getByTestId("bulk-selected").textContent()).toBe("3 devices selected");

    // Nothing chosen yet: refused on the screen, nothing sent.
    const before = await bulkCount();
    await page.getByTestId("bulk-kind-command").click();
    await page.getByTestId("bulk-send").click();
    expect(await page.getByTestId("bulk-error").textContent()).toBe("Choose a command");
    expect(await bulkCount()).toBe(before);

    await choose(page, "bulk-command", "Clear fault");
    await page.getByTestId("bulk-send").click();
    await confirm(page, "Send “Clear fault” to 3 devices?");
    await page.getByTestId("bulk-outcome").waitFor();
    await expect.poll(() => stateOf(page, single as string), { timeout: 20_000 }).toBe("Acknowledged");
    await expect.poll(() => stateOf(page, three as string), { timeout: 20_000 }).toBe("Acknowledged");
    await expect.poll(() => stateOf(page, OFFLINE_SN)).toBe("Refused");
    expect(await reasonOf(page, OFFLINE_SN)).toBe("Device is Offline");
    await expect.poll(() => page.getByTestId("bulk-count-acknowledged").textContent()).toBe("Acknowledged: 2");
    await page.getByTestId("bulk-finished").waitFor();
    await screenshot(page, "device-bulk-command-en-US");
    await page.context().close();
  });

  it("sends a standby-only setting to every three-phase device: refused while running, acknowledged in standby (zh-CN)", async () => {
    const [running, standby] = threePhase() as [string, string];
    // One three-phase device switched off first, so it is in standby.
    await console_.asAdmin("POST", "/admin/param/set/command", { deviceId: devices.get(standby)?.id, command: 1 });
    const page = await open("zh-CN", "/device/bulk/index");
    await page.getByTestId("bulk-page").waitFor();
    await choose(page, "bulk-devices-filter-phaseType", "三相");
    await page.getByTestId("bulk-devices-search").click();
    await expect.poll(() => page.getByTestId("bulk-devices-table").locator("tbody tr.ant-table-row").count()).toBe(3);
    await page.getByTestId("bulk-select-all").click();
    await expect.poll(() => page.getByTestId("bulk-selected").textContent()).toBe("已选择 3 台设备");

    await choose(page, "bulk-register", "电网电压保护上限值1");
    const value = page.getByTestId("setting-TP_0X03_1058").locator("input");
    // Off the register's 0.1 V step: the shared validator refuses it here and nothing is sent.
    const before = await bulkCount();
    await value.fill("260.05");
    await page.getByTestId("bulk-send").click();
    // The refusal names the setting.
    expect(await page.getByTestId("bulk-error").textContent()).toBe("电网电压保护上限值1必须是 0.1 的整数倍");
    expect(await page.getByTestId("setting-TP_0X03_1058").textContent()).toContain("必须是 0.1 的整数倍");
    expect(await bulkCount()).toBe(before);

    await value.fill("260");
    await page.getByTestId("bulk-send").click();
    await confirm(page, "确定将“电网电压保护上限值1 → 260 V”下发到 3 台设备？");
    await expect.poll(() => stateOf(page, standby), { timeout: 20_000 }).toBe("已确认");
    await expect.poll(() => stateOf(page, running), { timeout: 20_000 }).toBe("已拒绝");
    expect(await reasonOf(page, running)).toBe("该设置仅在待机或关机状态下生效，请先关机");
    await expect.poll(() => stateOf(page, OFFLINE_SN)).toBe("已拒绝");
    expect(await reasonOf(page, OFFLINE_SN)).toBe("设备离线");
    await screenshot(page, "device-bulk-setting-zh-CN");
    await page.context().close();
  });

  it("keeps a mode whose periods leave part of the day uncovered or overlap from being saved, and saves whole-day periods", async () => {
    const page = await open("en-US", "/wel/index");
    await fromMenu(page, "/device/modes");
    const modes = crudScreen(page, "modes");
    await modes.root.waitFor();
    const p = "modes-create-dialog-periodsText";
    const time = async (id: string, value: string) => {
      const input = page.locator(`input[data-testid="${id}"]`).or(page.getByTestId(id).locator("input"));
      await input.click();
      await input.fill(value);
      await page.keyboard.press("Enter");
    };
    const stored = async () => (await db().query<{ n: number }>("SELECT count(*)::int AS n FROM energy_mode")).rows[0]?.n;
    // A retry starts from the world the first try found: no mode stored.
    await db().query("DELETE FROM energy_mode");
    await modes.create();
    await modes.fill({
      code: "PEAK",
      name: "Peak shaving",
      description: "Sell at noon",
      chargeSoc: "90",
      sellSoc: "40",
      dischargeOffSoc: "20",
    });
    await time(`${p}-0-end`, "12:00");
    // The whole-day rule speaks at the field while the periods are edited, before any save.
    await expect.poll(() => modes.fieldError("periodsText")).toBe("The time periods must cover the whole day, 00:00-23:59");
    await modes.save();
    await expect.poll(() => modes.fieldError("periodsText")).toBe("The time periods must cover the whole day, 00:00-23:59");
    expect(await stored()).toBe(0);

    await page.getByTestId(`${p}-add`).click();
    await time(`${p}-1-start`, "11:00");
    await time(`${p}-1-end`, "23:59");
    await expect.poll(() => modes.fieldError("periodsText")).toBe("There is an overlap in the time periods. Please check!");
    await modes.save();
    await expect.poll(() => modes.fieldError("periodsText")).toBe("There is an overlap in the time periods. Please check!");
    expect(await stored()).toBe(0);

    await time(`${p}-1-start`, "12:00");
    // The field is no longer refused (a fading message does not count).
    await expect.poll(() => page.getByTestId("field-periodsText").locator(".ant-form-item-has-error").count()).toBe(0);
    await modes.save();
    await modes.dialogGone();
    await expect.poll(() => modes.row("PEAK").textContent()).toContain("00:00-12:00, 12:00-23:59");

    // Edit: the second period removed leaves the afternoon uncovered.
    await modes.rowAction("PEAK", "edit");
    const e = "modes-edit-dialog-periodsText";
    await page.getByTestId(`${e}-1-remove`).click();
    await expect.poll(() => modes.fieldError("periodsText")).toBe("The time periods must cover the whole day, 00:00-23:59");
    await modes.save();
    await expect.poll(() => modes.fieldError("periodsText")).toBe("The time periods must cover the whole day, 00:00-23:59");
    await screenshot(page, "device-modes-refused-en-US");
    await modes.cancel();
    await expect.poll(() => modes.row("PEAK").textContent()).toContain("00:00-12:00, 12:00-23:59");
    await page.context().close();
  });

  it("hides a field from the settings form of the audience the display configuration takes it from", async () => {
    const [sn] = threePhase() as [string];
    const deviceId = devices.get(sn)?.id as number;
    const form = await open("en-US", `/device/settings/${deviceId}`);
    await openTab(form, "settings-tab-48");
    await form.getByTestId("setting-TP_0X03_1054").waitFor();
    await form.context().close();

    const page = await open("en-US", "/wel/index");
    await fromMenu(page, "/device/settings-display");
    await page.getByTestId("display-config").waitFor();
    // Back office (the administrator's audience) no longer views the grid-connected SOC lower limit.
    const cell = page.getByTestId("display-TP_0X03_1054-backOffice");
    await cell.getByText("View").click();
    await page.getByTestId("display-save").click();
    await expect.poll(() => page.getByTestId("display-save").isDisabled()).toBe(true);
    await expect.poll(() => cell.locator(".ant-tag").textContent()).toBe("Changed (click for the default)");
    await page.context().close();

    const after = await open("en-US", `/device/settings/${deviceId}`);
    await openTab(after, "settings-tab-48");
    await after.getByTestId("setting-TP_0X03_1055").waitFor();
    expect(await after.getByTestId("setting-TP_0X03_1054").count()).toBe(0);
    // Installers keep it: only the audience the change concerns lost the field.
    const rights = (await console_.asAdmin("GET", "/admin/param/visibility?page=48")) as {
      id: string;
      rights: Record<string, { view: boolean }>;
    }[];
    expect(rights.find((r) => r.id === "TP_0X03_1054")?.rights).toMatchObject({
      backOffice: { view: false },
      installer: { view: true },
    });
    await screenshot(after, "device-settings-display-hidden-en-US");
  });

  it("clears profit only after the spec's confirmation and records it among the device's commands (it)", async () => {
    const [sn] = threePhase() as [string];
    const deviceId = devices.get(sn)?.id as number;
    const cleared = async () =>
      (
        await db().query<{ n: number }>("SELECT count(*)::int AS n FROM device_write WHERE device_id = $1 AND command = 100", [
          deviceId,
        ])
      ).rows[0]?.n;
    const before = await cleared();
    const page = await open("it", `/device/settings/${deviceId}`);
    await openTab(page, "settings-tab-commands");
    const question = page.locator(".ant-modal-confirm-title");
    await page.getByTestId("clear-profit").click();
    await expect.poll(() => question.textContent()).toBe("Questa azione azzererà tutti i dati sul profitto. Confermare.");
    expect(await page.locator(".ant-modal-confirm-content").textContent()).toContain("giornaliero, mensile, annuale e totale");
    // Cancelled: nothing cleared, nothing recorded.
    await page.locator(".ant-modal-confirm-btns button").first().click();
    await question.waitFor({ state: "detached" });
    expect(await cleared()).toBe(before);

    await page.getByTestId("clear-profit").click();
    await page.getByTestId("clear-profit-ok").click();
    await expect.poll(cleared).toBe((before ?? 0) + 1);
    await openTab(page, "settings-tab-records");
    const row = page.getByTestId("write-records").getByRole("row").filter({ hasText: "Azzera profitto" });
    await expect.poll(() => row.textContent()).toContain("Confermato");
    await screenshot(page, "device-clear-profit-it");
  });
});
