import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminFormCases, type Paged } from "../src/admin-form-cases.ts";
import { CHROMIUM, launchBrowser, screenshot } from "../src/browser.ts";
import { crudScreen } from "../src/crud-screen.ts";
import { signIn, startShellConsole } from "../src/shell-fixture.ts";

/**
 * Bad input on every form of the administration screens: each refusal is shown on the field it
 * concerns, worded with the field's name, and nothing changes (checked through the API).
 */
describe.skipIf(!CHROMIUM)("administration forms refuse bad input field by field and change nothing, in Chromium", () => {
  let browser: Browser;
  let page: Page;
  let url: string;
  let stop: () => Promise<void>;
  let asAdmin: Awaited<ReturnType<typeof startShellConsole>>["asAdmin"];
  let inject: Awaited<ReturnType<typeof startShellConsole>>["runtime"]["app"]["inject"];
  let runtime: Awaited<ReturnType<typeof startShellConsole>>["runtime"];

  const list = async (path: string) => (await asAdmin("GET", path)) as Paged;
  const one = async (path: string) => (await list(path)).records[0] as Record<string, unknown>;

  beforeAll(async () => {
    const started = await startShellConsole();
    ({ url, stop, asAdmin, runtime } = started);
    inject = started.runtime.app.inject.bind(started.runtime.app);
    const org = (await asAdmin("POST", "/admin/lsyinstaller/save", {
      kind: "installer",
      name: "Sole Impianti",
      authorisationCode: "AUTH-17",
      contact: "Luca Sole",
      email: "luca@sole.example",
      account: { username: "sole", password: "Sole2025x" },
    })) as { id: number };
    await asAdmin("POST", "/admin/lsyuser/save", { username: "anna", password: "Anna2025x", name: "Anna", orgId: org.id });
    const engineer = (await list("/sys/role/page?roleCode=ENGINEER")).records[0] as { id: number };
    await asAdmin("POST", "/sys/user/save", {
      username: "bob",
      password: "Bob2025xx",
      name: "Bob",
      userType: 0,
      roleIds: [engineer.id],
    });
    // Anna asks for her account to be deleted (after the first password change every account makes).
    const auth = { authorization: `Bearer ${await started.tokenFor("anna", "Anna2025x")}` };
    const changed = await inject({
      method: "POST",
      url: "/sys/user/password/edit",
      headers: auth,
      payload: { oldPassword: "Anna2025x", newPassword: "Anna2026x", confirmPassword: "Anna2026x" },
    });
    expect(changed.statusCode).toBe(200);
    const applied = await inject({
      method: "POST",
      url: "/admin/user/logout/apply",
      headers: auth,
      payload: { type: 1, reason: "Moving" },
    });
    expect(applied.statusCode).toBe(200);

    browser = await launchBrowser();
    page = await (await browser.newContext({ locale: "en-US", viewport: { width: 1440, height: 900 } })).newPage();
    await signIn(page, url);
  });
  afterAll(async () => {
    await browser?.close();
    await stop?.();
  });

  const CASES = adminFormCases({
    list,
    one,
    get: (path) => asAdmin("GET", path),
    rows: async (query) => (await runtime.db.query(query)).rows,
  });

  for (const c of CASES) {
    const what = c.open === "create" ? "create" : c.open.action;
    it(`${c.screen} ${what}: ${Object.keys(c.errors).join(", ")}`, async () => {
      const before = await c.state();
      const screen = crudScreen(page, c.screen);
      await screen.open(url, c.path);
      if (c.open === "create") await screen.create();
      else {
        await expect.poll(() => screen.row(c.open === "create" ? "" : c.open.row).isVisible()).toBe(true);
        await screen.rowAction(c.open.row, c.open.action);
      }
      await screen.fill(c.fill);
      await screen.save();
      const [first] = Object.keys(c.errors);
      await expect.poll(() => screen.fieldError(first as string)).not.toBeNull();
      const shown: Record<string, string | null> = {};
      for (const field of Object.keys(c.errors)) shown[field] = await screen.fieldError(field);
      expect(shown).toEqual(c.errors);
      await screenshot(page, `admin-form-${c.screen}-${what}`);
      await screen.cancel();
      expect(await c.state()).toEqual(before);
    });
  }

  it("the installer users screen lists the channel's staff accounts only, and makes new ones of that type", async () => {
    const staff = crudScreen(page, "installer-users");
    await staff.open(url, "/channel/staff/index");
    await expect.poll(() => staff.row("sole").isVisible()).toBe(true);
    expect(await staff.row("bob").count()).toBe(0);
    expect(await staff.row("Administrator").count()).toBe(0);
    await staff.create();
    expect(await page.getByTestId("installer-users-create-dialog-userType").textContent()).toBe("Installer");
    await staff.fill({ username: "fitter", password: "Fitter2025x", name: "Fitter" });
    await staff.choose("orgId", "Sole Impianti");
    await staff.choose("roleIds", "Installer");
    await staff.save();
    await staff.dialogGone();
    await expect.poll(() => staff.row("fitter").isVisible()).toBe(true);
    expect(await one("/sys/user/page?username=fitter")).toMatchObject({ userType: 1, orgName: "Sole Impianti" });
  });

  /** The confirmation antd shows on top (the last one opened). */
  const confirmation = () => page.locator(".ant-modal-confirm").last();
  const answer = async (button: "Confirm" | "Cancel") => {
    // A click while the dialog is still zooming in can be lost: answer once it stands still.
    await page.waitForFunction(() => !document.querySelector(".ant-modal-confirm[class*='ant-zoom']"));
    await confirmation().getByRole("button", { name: button }).click();
    try {
      await expect.poll(() => page.locator(".ant-modal-confirm:visible").count()).toBe(0);
    } catch (error) {
      await screenshot(page, "admin-forms-confirmation-stuck");
      throw error;
    }
  };

  it("asks before locking and unlocking an account; saying no changes nothing", async () => {
    const users = crudScreen(page, "users");
    await users.open(url, "/admin/user/index");
    await users.rowAction("bob", "lock");
    await expect.poll(() => confirmation().textContent()).toContain("Lock the account bob? It will not be able to sign in.");
    await answer("Cancel");
    expect((await one("/sys/user/page?username=bob")).status).toBe(0);
    await users.rowAction("bob", "lock");
    await answer("Confirm");
    await expect.poll(async () => (await one("/sys/user/page?username=bob")).status).toBe(1);
    await expect.poll(() => users.row("bob").getByTestId("users-lock").textContent()).toBe("Unlock");
    await users.rowAction("bob", "lock");
    await expect.poll(() => confirmation().textContent()).toContain("Unlock the account bob?");
    await answer("Confirm");
    await expect.poll(async () => (await one("/sys/user/page?username=bob")).status).toBe(0);
    // The administrator's own row offers none of these.
    expect(await users.row("Administrator").getByTestId("users-lock").count()).toBe(0);
    expect(await users.row("Administrator").getByTestId("users-delete").count()).toBe(0);
  });

  it("exports the filtered accounts as a CSV file after asking", async () => {
    const users = crudScreen(page, "users");
    await users.open(url, "/admin/user/index");
    await page.getByTestId("users-filter-username").fill("bob");
    await page.getByTestId("users-search").click();
    await expect.poll(() => users.root.locator("tr.ant-table-row").count()).toBe(1);
    await page.getByTestId("users-export").click();
    await expect.poll(() => confirmation().textContent()).toContain("Export the 1 records that match the filters?");
    const download = page.waitForEvent("download");
    await answer("Confirm");
    const file = await download;
    expect(file.suggestedFilename()).toBe("users.csv");
    const csv = readFileSync(await file.path(), "utf8");
    expect(csv).toContain("bob");
    expect(csv).not.toContain("sole");
    await page.getByTestId("users-reset").click();
    await expect.poll(() => users.root.locator("tr.ant-table-row").count()).toBeGreaterThan(1);
  });

  it("approves a deletion request after a warning: the account is gone", async () => {
    const requests = crudScreen(page, "cancellations");
    await requests.open(url, "/channel/cancel/index");
    await requests.rowAction("anna", "approve");
    await expect
      .poll(() => page.getByTestId("cancellations-approve-dialog").textContent())
      .toContain("Approving deletes the account for good; it cannot be restored.");
    await requests.fill({ remarks: "As asked" });
    await requests.save();
    await requests.dialogGone();
    await expect.poll(async () => (await one("/admin/user/logout/page?size=10")).status).toBe(1);
    expect((await list("/admin/lsyuser/page?username=anna")).total).toBe(0);
    await expect.poll(() => requests.row("As asked").isVisible()).toBe(true);
    expect(await requests.row("As asked").getByTestId("cancellations-approve").count()).toBe(0);
  });

  it("deletes an account and a role after asking; saying no keeps them", async () => {
    const users = crudScreen(page, "users");
    await users.open(url, "/admin/user/index");
    await users.rowAction("bob", "delete");
    await expect.poll(() => confirmation().textContent()).toContain("Delete the account bob for good?");
    await answer("Cancel");
    expect((await list("/sys/user/page?username=bob")).total).toBe(1);
    await users.rowAction("bob", "delete");
    await answer("Confirm");
    await expect.poll(async () => (await list("/sys/user/page?username=bob")).total).toBe(0);

    await asAdmin("POST", "/sys/role/save", { roleCode: "TEMP_ROLE", roleName: "Temporary", userType: 0, permissions: [] });
    const roles = crudScreen(page, "roles");
    await roles.open(url, "/admin/role/index");
    await page.getByTestId("roles-refresh").click();
    await expect.poll(() => roles.row("TEMP_ROLE").isVisible()).toBe(true);
    // A role that accounts hold offers no delete.
    expect(await roles.row("ENGINEER").getByTestId("roles-delete").count()).toBe(1);
    expect(await roles.row("ADMIN").getByTestId("roles-delete").count()).toBe(0);
    await roles.rowAction("TEMP_ROLE", "delete");
    await expect.poll(() => confirmation().textContent()).toContain("Delete the role TEMP_ROLE?");
    await answer("Confirm");
    await expect.poll(async () => (await list("/sys/role/page?roleCode=TEMP_ROLE")).total).toBe(0);
  });

  it("pages and sorts on the server", async () => {
    const engineer = (await list("/sys/role/page?roleCode=ENGINEER")).records[0] as { id: number };
    for (let i = 1; i <= 11; i++) {
      const username = `pager${String(i).padStart(2, "0")}`;
      await asAdmin("POST", "/sys/user/save", {
        username,
        password: "Pager2025x",
        name: username,
        userType: 0,
        roleIds: [engineer.id],
      });
    }
    const users = crudScreen(page, "users");
    await users.open(url, "/admin/user/index");
    await page.getByTestId("users-filter-username").fill("pager");
    await page.getByTestId("users-search").click();
    await expect.poll(() => users.root.getByText("11 in all").isVisible()).toBe(true);
    expect(await users.root.locator("tr.ant-table-row").count()).toBe(10);
    const firstAccount = () => users.root.locator("tr.ant-table-row td").first().textContent();
    await users.root.getByRole("columnheader", { name: "Account" }).click();
    await expect.poll(firstAccount).toBe("pager01");
    await users.root.getByRole("columnheader", { name: "Account" }).click();
    await expect.poll(firstAccount).toBe("pager11");
    await users.root.locator(".ant-pagination-item-2").click();
    await expect.poll(() => users.root.locator("tr.ant-table-row").count()).toBe(1);
    expect(await firstAccount()).toBe("pager01");
    await page.getByTestId("users-reset").click();
  });

  it("adds a menu item with labels in five languages; it opens its page from the side menu in each", async () => {
    const menus = crudScreen(page, "menus");
    await menus.open(url, "/admin/menu/index");
    await menus.create();
    await menus.choose("parentId", "System");
    await menus.fill({
      label: "账号清单",
      nameEn: "Account list",
      nameItaly: "Elenco account",
      nameEs: "Lista de cuentas",
      nameJa: "アカウント一覧",
      path: "/admin/accounts",
      component: "views/admin/user/index",
    });
    await menus.choose("permission", "View users");
    await menus.save();
    await menus.dialogGone();
    const tree = (await asAdmin("GET", "/sys/menu/tree")) as { path: string; children: Record<string, unknown>[] }[];
    const added = tree.find((m) => m.path === "/admin")?.children.find((m) => m.path === "/admin/accounts");
    expect(added).toMatchObject({ label: "账号清单", nameEs: "Lista de cuentas", permission: "sys.user.view", menuType: "left" });

    for (const [locale, label] of [
      ["en-US", "Account list"],
      ["it", "Elenco account"],
      ["ja", "アカウント一覧"],
    ] as const) {
      const other = await (await browser.newContext({ locale, viewport: { width: 1440, height: 900 } })).newPage();
      await signIn(other, url);
      await other.getByTestId("menu:/admin").click();
      await expect.poll(() => other.getByTestId("menu:/admin/accounts").textContent()).toBe(label);
      await other.getByTestId("menu:/admin/accounts").click();
      await other.waitForURL(/#\/admin\/accounts\/index$/);
      await other.getByTestId("users-page").waitFor();
      await other.context().close();
    }
  });

  it("a refusal only the server can make (a taken account name) lands on its field too, and nothing is made", async () => {
    const before = (await list("/admin/lsyinstaller/page?size=100")).total;
    const orgs = crudScreen(page, "orgs");
    await orgs.open(url, "/channel/installer/index");
    await orgs.create();
    await orgs.fill({
      name: "Vento Srl",
      authorisationCode: "AUTH-99",
      contact: "Marta",
      email: "marta@vento.example",
      "account.username": "sole",
      "account.password": "Vento2025x",
    });
    await orgs.save();
    await expect.poll(() => orgs.fieldError("account.username")).toBe("Account is already in use");
    await orgs.cancel();
    expect((await list("/admin/lsyinstaller/page?size=100")).total).toBe(before);
  });
});
