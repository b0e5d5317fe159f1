import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { createTranslator } from "../../src/i18n/translator.ts";
import { bearer } from "../helpers/accounts.ts";
import { createTestApp, signIn, type TestApp } from "../helpers/test-app.ts";

/**
 * The repeat guard across a console's processes: two apps on one database stand for two processes
 * behind a load balancer without sticky sessions. A double click whose two copies reach different
 * processes is done once; the second copy answers 000 "too frequent" and changes nothing.
 */
describe("the repeat guard, shared by the processes of a console", () => {
  let first: TestApp;
  let second: FastifyInstance;
  let token = "";
  beforeAll(async () => {
    first = await createTestApp({ repeatGuardMs: 1500 });
    second = await buildApp({
      db: first.db,
      translator: await createTranslator(),
      broker: { isConnected: () => true },
      accessTokenTtlS: 3600,
      refreshTokenTtlS: 86_400,
      webDist: null,
      checkResponses: true,
      signIn: { captcha: false },
      repeatGuardMs: 1500,
    });
    await second.ready();
    token = await signIn(first.app);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const menus = async (label: string) =>
    (await first.db.query<{ n: number }>("SELECT count(*)::int AS n FROM sys_menu WHERE label = $1", [label])).rows[0]?.n;

  it("answers the copy that reaches the other process too frequent, and saves the menu once", async () => {
    const save = (app: FastifyInstance, label: string) =>
      app.inject({
        method: "POST",
        url: "/sys/menu/save",
        payload: { menuType: "left", label, path: "/repeat", component: "x", sort: 1 },
        headers: bearer(token),
      });
    expect((await save(first.app, "Twice clicked")).json().code).toBe(0);
    const again = (await save(second, "Twice clicked")).json();
    expect(again.errorCode).toBe("000");
    expect(await menus("Twice clicked")).toBe(1);
    // A different change goes through at once, on either process.
    expect((await save(second, "Another menu")).json().code).toBe(0);
  });

  it("lets the same change through again once the window has passed", async () => {
    const save = () =>
      first.app.inject({
        method: "POST",
        url: "/sys/menu/save",
        payload: { menuType: "left", label: "Later", path: "/later", component: "x", sort: 1 },
        headers: bearer(token),
      });
    expect((await save()).json().code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect((await save()).json().code).toBe(0);
    expect(await menus("Later")).toBe(2);
  });
});
