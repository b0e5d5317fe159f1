import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, createTestApp, signIn, type TestApp } from "../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const userInfo = (token?: string, lang = "en-US") =>
  t.app.inject({
    method: "GET",
    url: "/sys/user/info",
    headers: { "accept-language": lang, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });

describe("sign-in", () => {
  it("issues tokens and the administrator's authorities", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/login?grant_type=admin",
      payload: { username: "admin", password: ADMIN_PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    const { code, data } = response.json();
    expect(code).toBe(0);
    expect(data).toMatchObject({ token_type: "bearer", expires_in: 3600, sfFirst: false, tenant_id: 1, username: "admin" });
    expect(data.access_token).not.toBe(data.refresh_token);
    expect(data.authorities).toContain("ROLE_ADMIN");
    expect(data.authorities).toContain("sys.user.edit");
  });

  it("accepts the account name in any case", async () => {
    await expect(signIn(t.app, "ADMIN")).resolves.toMatch(/.{20,}/);
  });

  it.each([
    ["a wrong password", "admin", "Wrong12345"],
    ["an unknown account", "nobody", ADMIN_PASSWORD],
  ])("answers 426 to %s, the same way", async (_, username, password) => {
    const response = await t.app.inject({
      method: "POST",
      url: "/login?grant_type=admin",
      headers: { "accept-language": "es" },
      payload: { username, password },
    });
    expect(response.statusCode).toBe(426);
    expect(response.json()).toEqual({ code: 1, msg: "Cuenta desconocida o contraseña incorrecta", data: null, errorCode: "426" });
  });

  it("never stores the password in clear", async () => {
    const { rows } = await t.db.query<{ password_hash: string }>("SELECT password_hash FROM sys_user WHERE username = 'admin'");
    expect(rows[0]?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(rows[0]?.password_hash).not.toContain(ADMIN_PASSWORD);
  });
});

describe("the session", () => {
  it("returns the signed-in user with roles and permissions", async () => {
    const token = await signIn(t.app);
    const response = await userInfo(token);
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data.user).toMatchObject({ username: "admin", userType: 0, tenantId: 1 });
    expect(data.roles).toEqual(["ADMIN"]);
    expect(data.permissions).toContain("sys.role.edit");
  });

  it("answers 401 without a token or with an unknown one", async () => {
    for (const token of [undefined, "x".repeat(43)]) {
      const response = await userInfo(token);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: 1, errorCode: "401" });
    }
  });

  it("answers 401 with body code 5 once the access token has expired", async () => {
    const token = await signIn(t.app);
    await t.db.query("UPDATE auth_session SET access_expires_at = now() - interval '1 second'");
    const response = await userInfo(token);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      code: 5,
      msg: "Your session has expired, please sign in again",
      data: null,
      errorCode: "401",
    });
  });

  it("revokes the token at sign-out", async () => {
    const token = await signIn(t.app);
    expect((await userInfo(token)).statusCode).toBe(200);
    const out = await t.app.inject({ method: "POST", url: "/sys/logout", headers: { authorization: `Bearer ${token}` } });
    expect(out.json()).toMatchObject({ code: 0, data: null });
    expect((await userInfo(token)).statusCode).toBe(401);
  });

  it("ends the sessions of a locked account", async () => {
    const token = await signIn(t.app);
    await t.db.query("UPDATE sys_user SET status = 1 WHERE username = 'admin'");
    try {
      expect((await userInfo(token)).statusCode).toBe(401);
      const again = await t.app.inject({
        method: "POST",
        url: "/login?grant_type=admin",
        headers: { "accept-language": "en-US" },
        payload: { username: "admin", password: ADMIN_PASSWORD },
      });
      expect(again.json().msg).toBe("This account is locked; please contact the administrator");
    } finally {
      await t.db.query("UPDATE sys_user SET status = 0 WHERE username = 'admin'");
    }
  });
});

describe("with the session cache on (as in production)", () => {
  it("still revokes a signed-out token at once", async () => {
    const cached = await createTestApp({ sessionCacheS: 10 });
    try {
      const token = await signIn(cached.app);
      const info = () =>
        cached.app.inject({ method: "GET", url: "/sys/user/info", headers: { authorization: `Bearer ${token}` } });
      expect((await info()).statusCode).toBe(200);
      expect((await info()).statusCode).toBe(200);
      await cached.app.inject({ method: "POST", url: "/sys/logout", headers: { authorization: `Bearer ${token}` } });
      expect((await info()).statusCode).toBe(401);
    } finally {
      await cached.close();
    }
  });
});
