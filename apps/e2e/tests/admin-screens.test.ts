import { readFileSync } from "node:fs";
import { OPERATION_IDS } from "@ess/domain";
import { createChallenges } from "@ess/server/internal/modules/auth/challenges.ts";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../src/api.ts";
import { CHROMIUM, launchBrowser, screenshot } from "../src/browser.ts";
import { crudScreen, sideMenuPaths } from "../src/crud-screen.ts";
import { ADMIN_PASSWORD, startShellConsole } from "../src/shell-fixture.ts";
import { signInOnPage } from "../src/sign-in-page.ts";

type Role = { id: number; roleCode: string; permissions: string[] };
type User = { id: number; username: string; roles: { code: string }[] };
type Paged<T> = { records: T[]; total: number };

/** What a language shows for one run of the role → user → sign-in story. */
interface Story {
  locale: string;
  role: { code: string; name: string; permissions: string[]; ids: string[] };
  user: { username: string; name: string };
  text: Record<"badCode" | "nameRequired" | "accountShort" | "passwordRule" | "rolesNeeded" | "accountTaken" | "saved", string>;
  menus: string[];
}

const STORIES: Story[] = [
  {
    locale: "en-US",
    role: {
      code: "AUDITOR",
      name: "Auditor",
      permissions: ["View the operation log", "View distributors, dealers and installers"],
      ids: ["org.view", "sys.log.view"],
    },
    user: { username: "audrey", name: "Audrey Auditor" },
    text: {
      badCode: "Role identifier is not in a valid format",
      nameRequired: "Role name is required",
      accountShort: "Account needs at least 2 characters",
      passwordRule: "The password must have 6 to 20 characters with both letters and digits",
      rolesNeeded: "Roles is required",
      accountTaken: "Account is already in use",
      saved: "Saved",
    },
    menus: ["/admin", "/admin/log", "/channel", "/channel/installer", "/inbox", "/wel"],
  },
  {
    locale: "it",
    role: {
      code: "REVISORE",
      name: "Revisore",
      permissions: ["Visualizzare gli utenti finali", "Visualizzare le richieste di cancellazione"],
      ids: ["cancel.view", "enduser.view"],
    },
    user: { username: "giulia", name: "Giulia Bianchi" },
    text: {
      badCode: "Identificativo del ruolo: formato non valido",
      nameRequired: "Nome del ruolo: campo obbligatorio",
      accountShort: "Account: servono almeno 2 caratteri",
      passwordRule: "La password deve avere da 6 a 20 caratteri, con lettere e cifre",
      rolesNeeded: "Ruoli: campo obbligatorio",
      accountTaken: "Account è già in uso",
      saved: "Salvato",
    },
    menus: ["/channel", "/channel/cancel", "/channel/enduser", "/inbox", "/wel"],
  },
];

describe.skipIf(!CHROMIUM)("administration screens: sign-in, roles, users and what a new user sees, in Chromium", () => {
  let browser: Browser;
  let url: string;
  let stop: () => Promise<void>;
  let runtime: Awaited<ReturnType<typeof startShellConsole>>["runtime"];
  const api = () => apiClient(url);
  let admin: string;

  beforeAll(async () => {
    ({ url, stop, runtime } = await startShellConsole({ ESS_CAPTCHA: "on" }));
    admin = await api().signIn("admin", ADMIN_PASSWORD);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stop?.();
  });

  /** Removes what an earlier attempt of a story made, so that a retry starts from the same fleet. */
  const forget = async (story: Story) => {
    const user = (await api().get<Paged<User>>(`/sys/user/page?username=${story.user.username}`, admin)).records[0];
    if (user) await api().post("/sys/user/del", { id: user.id }, admin);
    const role = (await api().get<Paged<Role>>(`/sys/role/page?roleCode=${story.role.code}`, admin)).records[0];
    if (role) await api().post("/sys/role/del", { id: role.id }, admin);
  };

  const newPage = async (locale: string) => {
    const context = await browser.newContext({ locale, viewport: { width: 1440, height: 900 } });
    return context.newPage();
  };

  it("signs in with the picture code (en-US)", async () => {
    const page = await newPage("en-US");
    await page.goto(url);
    await page.getByTestId("use-captcha").click();
    const image = page.getByTestId("captcha-image");
    await expect.poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(120);
    // The test cannot read the picture, so it tells the server what the picture says for this key.
    const key = new URL(String(await image.getAttribute("src")), url).searchParams.get("randomStr") as string;
    await createChallenges(runtime.db).put("captcha", key, 120, { text: "K7PX" });
    await page.getByTestId("login-username").fill("admin");
    await page.getByTestId("login-password").fill(ADMIN_PASSWORD);
    await page.getByTestId("captcha-input").fill("k7px");
    await page.getByTestId("login-submit").click();
    await page.waitForURL(/#\/wel\/index$/);
    await expect.poll(() => page.getByTestId("home-greeting").textContent()).toBe("Hello, Administrator");
    await page.context().close();
  });

  for (const story of STORIES) {
    it(`${story.locale}: a role with two permissions and a user holding it, made on the screens; the user sees only those menus`, async () => {
      await forget(story);
      const page = await newPage(story.locale);
      await page.goto(url);
      await signInOnPage(page, "admin", ADMIN_PASSWORD);
      await page.waitForURL(/#\/wel\/index$/);

      // The role: bad input first, refused on its fields without reaching the server's data.
      const rolesBefore = (await api().get<Paged<Role>>("/sys/role/page?size=100", admin)).total;
      const roles = crudScreen(page, "roles");
      await roles.open(url, "/admin/role/index");
      await roles.create();
      await roles.fill({ roleCode: "bad code" });
      await roles.save();
      await expect.poll(() => roles.fieldError("roleCode")).toBe(story.text.badCode);
      expect(await roles.fieldError("roleName")).toBe(story.text.nameRequired);
      expect((await api().get<Paged<Role>>("/sys/role/page?size=100", admin)).total).toBe(rolesBefore);

      await roles.fill({ roleCode: story.role.code, roleName: story.role.name });
      await roles.tick("permissions", story.role.permissions);
      await roles.save();
      await roles.dialogGone();
      await expect.poll(() => roles.row(story.role.code).isVisible()).toBe(true);
      const saved = (await api().get<Paged<Role>>(`/sys/role/page?roleCode=${story.role.code}`, admin)).records[0];
      expect([...(saved?.permissions ?? [])].sort()).toEqual(story.role.ids);
      await screenshot(page, `admin-roles-${story.locale}`);

      // The user: refused input, then a name that is taken (the server's refusal, on its field), then right.
      const users = crudScreen(page, "users");
      await users.open(url, "/admin/user/index");
      const usersBefore = (await api().get<Paged<User>>("/sys/user/page?size=100", admin)).total;
      await users.create();
      await users.fill({ username: "x", password: "abc", name: story.user.name });
      await users.save();
      await expect.poll(() => users.fieldError("username")).toBe(story.text.accountShort);
      expect(await users.fieldError("password")).toBe(story.text.passwordRule);
      expect(await users.fieldError("roleIds")).toBe(story.text.rolesNeeded);
      await users.fill({ username: "admin", password: "Start2025x" });
      await users.choose("roleIds", story.role.name);
      await users.save();
      await expect.poll(() => users.fieldError("username")).toBe(story.text.accountTaken);
      // The earlier refusal under the password leaves with an animation: wait for it to go.
      await expect.poll(() => users.fieldError("password")).toBeNull();
      expect((await api().get<Paged<User>>("/sys/user/page?size=100", admin)).total).toBe(usersBefore);
      await users.fill({ username: story.user.username });
      await users.save();
      await users.dialogGone();
      await expect.poll(() => page.getByText(story.text.saved).first().isVisible()).toBe(true);
      await expect.poll(() => users.row(story.user.username).isVisible()).toBe(true);
      const made = (await api().get<Paged<User>>(`/sys/user/page?username=${story.user.username}`, admin)).records[0];
      expect(made?.roles.map((r) => r.code)).toEqual([story.role.code]);
      await screenshot(page, `admin-users-${story.locale}`);
      await page.context().close();

      // The new user signs in, must change the password first, then sees only what the role permits.
      const own = await newPage(story.locale);
      await own.goto(url);
      await signInOnPage(own, story.user.username, "Start2025x");
      await own.waitForURL(/#\/info\/index$/);
      await own.getByTestId("old-password").fill("Start2025x");
      await own.getByTestId("new-password").fill("Changed2025x");
      await own.getByTestId("confirm-password").fill("Changed2025x");
      await own.getByTestId("change-password").click();
      await own.waitForURL(/#\/wel\/index$/);
      expect(await sideMenuPaths(own)).toEqual(story.menus);
      await screenshot(own, `admin-new-user-menus-${story.locale}`);
      // A screen the role does not permit is not a route for this user.
      await own.goto(`${url}#/admin/role/index`);
      await own.waitForURL(/#\/404$/);
      await expect(api().signIn(story.user.username, "Changed2025x")).resolves.toMatch(/.{20,}/);
      await own.context().close();
    });
  }

  /** The log as an auditor (en-US, without delete) and as the administrator (ja) reads it: operations by name. */
  const LOG_VIEWS = [
    { locale: "en-US", who: ["audrey", "Changed2025x"], addRole: "Add role" },
    { locale: "ja", who: ["admin", ADMIN_PASSWORD], addRole: "ロールの追加" },
  ] as const;
  for (const view of LOG_VIEWS) {
    it(`${view.locale}: the operation log names the screens' changes, filters and exports by operation name`, async () => {
      const page = await newPage(view.locale);
      await page.goto(url);
      await signInOnPage(page, view.who[0], view.who[1]);
      await page.waitForURL(/#\/wel\/index$/);
      const logs = crudScreen(page, "logs");
      await logs.open(url, "/admin/log/index");
      // Every line names its operation in the reader's language, never by the server's key.
      await expect.poll(() => logs.root.locator("tr.ant-table-row").count()).toBeGreaterThan(0);
      const shown = (await logs.root.locator("tbody").textContent()) ?? "";
      expect(OPERATION_IDS.filter((id) => shown.includes(id))).toEqual([]);
      // The filter offers operations by name: typing the name finds it.
      await page.getByTestId("logs-filter-operation").click();
      await page.keyboard.type(view.addRole);
      await page
        .locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option", { hasText: view.addRole })
        .first()
        .click();
      await page.getByTestId("logs-search").click();
      // One save per story above (more if a story was retried): the screen lists what the log holds.
      const saves = (await api().get<Paged<unknown>>("/sys/log/page?operation=role.save", admin)).total;
      expect(saves).toBeGreaterThanOrEqual(STORIES.length);
      await expect.poll(() => logs.root.locator("tr.ant-table-row").count()).toBe(saves);
      const named = await logs.root.locator("tr.ant-table-row").allTextContents();
      expect(named.every((row) => row.includes(view.addRole))).toBe(true);
      expect(named.join("|")).not.toContain("role.save");
      await screenshot(page, `admin-log-filtered-${view.locale}`);
      // The export carries the same names.
      await page.getByTestId("logs-export").click();
      const download = page.waitForEvent("download");
      await page.locator(".ant-modal-confirm .ant-btn-primary").click();
      const csv = readFileSync(await (await download).path(), "utf8");
      const lines = csv.trim().split("\r\n").slice(1);
      expect(lines).toHaveLength(saves);
      expect(lines.every((line) => line.includes(view.addRole))).toBe(true);
      expect(csv).not.toContain("role.save");
      if (view.who[0] === "audrey") {
        expect(await page.getByTestId("logs-delete").count()).toBe(0);
        expect(await page.getByTestId("logs-create").count()).toBe(0);
      }
      await page.context().close();
    });
  }
});
