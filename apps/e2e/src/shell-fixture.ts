import { type ClientErrorEntry, errorLogRoutes, type MenuNode, menuRoutes } from "@ess/contracts";
import { bindRoute } from "@ess/server/bind-route";
import { startInProcess } from "@ess/server/in-process";
import type { Page } from "playwright-core";

export const ADMIN_PASSWORD = "E2eAdmin2025";

type Labels = [zh: string, en: string, it: string, es: string, ja: string];
const node = (id: number, labels: Labels, path: string, extra: Partial<MenuNode> = {}): MenuNode => ({
  id,
  parentId: null,
  label: labels[0],
  nameEn: labels[1],
  nameItaly: labels[2],
  nameEs: labels[3],
  nameJa: labels[4],
  path,
  component: null,
  icon: null,
  menuType: "left",
  permission: null,
  sort: id,
  keepAlive: false,
  meta: { roles: [] },
  query: null,
  children: [],
  ...extra,
});

export const USERS_LABELS: Labels = ["用户管理", "Users", "Utenti", "Usuarios", "ユーザー管理"];
export const SYSTEM_LABELS: Labels = ["系统管理", "System", "Sistema", "Sistema", "システム管理"];
export const LOGS_LABELS: Labels = ["日志管理", "Logs", "Registri", "Registros", "ログ管理"];

/** The menu the browser tests use while the server has no menu route of its own. */
export function fixtureMenu(origin: string): { left: MenuNode[]; top: MenuNode[]; sections: Record<number, MenuNode[]> } {
  return {
    left: [
      node(1, ["首页", "Home", "Home", "Inicio", "ホーム"], "/wel", { component: "views/wel/index", icon: "home" }),
      node(2, SYSTEM_LABELS, "/admin", {
        icon: "setting",
        children: [
          node(21, USERS_LABELS, "/admin/user", { parentId: 2, component: "views/admin/user/index", keepAlive: true }),
          node(22, LOGS_LABELS, "/admin/log", { parentId: 2, component: "views/admin/log/index" }),
          node(
            23,
            ["工程师工具", "Engineer tools", "Strumenti tecnici", "Herramientas técnicas", "技術者ツール"],
            "/admin/engineer",
            {
              parentId: 2,
              meta: { roles: ["ENGINEER"] },
            },
          ),
        ],
      }),
      node(3, ["帮助文档", "Help", "Guida", "Ayuda", "ヘルプ"], `${origin}favicon.svg`),
    ],
    top: [node(100, ["运维中心", "Operations", "Operazioni", "Operaciones", "運用センター"], "/ops", { menuType: "top" })],
    sections: { 100: [node(101, ["告警列表", "Alarms", "Allarmi", "Alarmas", "アラーム一覧"], "/ops/alarm", { parentId: 100 })] },
  };
}

/**
 * A console for browser tests, in this process. Until the identity module serves menus and
 * takes error-log uploads, test-only routes stand in for them (on the same contracts); once the
 * real routes exist, those are used.
 */
export async function startShellConsole(env: Record<string, string> = {}) {
  const uploads: ClientErrorEntry[][] = [];
  const fixtures: string[] = [];
  let origin = "";
  const extend: NonNullable<Parameters<typeof startInProcess>[1]> = (app) => {
    if (!app.hasRoute({ method: "GET", url: menuRoutes.menus.path })) {
      fixtures.push("menus");
      bindRoute(app, menuRoutes.menus, ({ input, auth }) => {
        if (auth.username === "nomenu") return [];
        const menu = fixtureMenu(origin);
        if (input.query.type === "top") return menu.top;
        if (input.query.parentId !== undefined) return menu.sections[input.query.parentId] ?? [];
        return menu.left;
      });
    }
    if (!app.hasRoute({ method: "POST", url: errorLogRoutes.upload.path })) {
      fixtures.push("error-log upload");
      bindRoute(app, errorLogRoutes.upload, ({ input }) => {
        uploads.push(input.body);
        return { stored: input.body.length };
      });
    }
  };
  const started = await startInProcess({ ESS_ADMIN_PASSWORD: ADMIN_PASSWORD, ESS_CAPTCHA: "off", ...env }, extend);
  origin = started.url;
  return { ...started, uploads, fixtures };
}

/** Signs in through the sign-in page and waits for home. */
export async function signIn(page: Page, url: string, username = "admin", password = ADMIN_PASSWORD) {
  await page.goto(`${url}#/login`);
  await page.getByTestId("login-username").fill(username);
  await page.getByTestId("login-password").fill(password);
  await page.getByTestId("login-submit").click();
  await page.waitForURL(/#\/wel\/index$/);
  await page.getByTestId("home-page").waitFor();
}

/** The open tabs' paths, in order. */
export const tabPaths = (page: Page) => page.getByTestId("tab").evaluateAll((els) => els.map((e) => e.getAttribute("data-path")));

/** The page path after the hash. */
export const hashPath = (page: Page) => new URL(page.url()).hash.slice(1).split("?")[0];
