import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer } from "../helpers/accounts.ts";
import { ADMIN_PASSWORD, createTestApp, signIn, type TestApp } from "../helpers/test-app.ts";

describe("a repeated identical submission", () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ repeatGuardMs: 60_000 });
    token = await signIn(t.app);
  });
  afterAll(() => t.close());

  const save = (label: string, lang = "en-US") =>
    t.app.inject({
      method: "POST",
      url: "/sys/menu/save",
      payload: { menuType: "left", label, path: "/x", component: "views/x/index", sort: 1 },
      headers: { ...bearer(token), "accept-language": lang },
    });

  it("answers 000 the second time and does the change once", async () => {
    expect((await save("一次")).statusCode).toBe(200);
    const again = await save("一次", "ja");
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 1,
      errorCode: "000",
      msg: "操作が頻繁すぎます。同じ送信を繰り返さないでください",
    });
    const { rows } = await t.db.query("SELECT count(*)::int AS n FROM sys_menu WHERE label = '一次'");
    expect(rows[0]).toEqual({ n: 1 });
  });

  it("lets a different submission through, and does not hold back reads", async () => {
    expect((await save("两次")).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) {
      expect((await t.app.inject({ method: "GET", url: "/sys/menu/tree", headers: bearer(token) })).statusCode).toBe(200);
    }
  });
});

describe("demo mode", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ demoMode: true });
  });
  afterAll(() => t.close());

  it("lets a visitor sign in, read and sign out, and refuses every change with 423", async () => {
    const login = await t.app.inject({
      method: "POST",
      url: "/login?grant_type=admin",
      payload: { username: "admin", password: ADMIN_PASSWORD },
    });
    const token = login.json().data.access_token as string;
    expect((await t.app.inject({ method: "GET", url: "/sys/menu/tree", headers: bearer(token) })).statusCode).toBe(200);
    const refused = await t.app.inject({
      method: "POST",
      url: "/sys/menu/save",
      payload: { menuType: "left", label: "x", path: "/x", component: "views/x/index", sort: 1 },
      headers: { ...bearer(token), "accept-language": "en-US" },
    });
    expect(refused.statusCode).toBe(423);
    expect(refused.json()).toMatchObject({
      code: 1,
      errorCode: "423",
      msg: "This is a demo environment; the operation is not possible",
    });
    const change = await t.app.inject({
      method: "POST",
      url: "/sys/user/password/edit",
      payload: { oldPassword: ADMIN_PASSWORD, newPassword: "Other12345", confirmPassword: "Other12345" },
      headers: bearer(token),
    });
    expect(change.statusCode).toBe(423);
    expect((await t.app.inject({ method: "POST", url: "/sys/logout", headers: bearer(token) })).statusCode).toBe(200);
  });
});
