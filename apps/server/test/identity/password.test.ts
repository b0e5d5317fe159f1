import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createAccount, signInTokens } from "../helpers/accounts.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const change = (token: string, body: object, lang = "en-US") =>
  t.app.inject({
    method: "POST",
    url: "/sys/user/password/edit",
    payload: body,
    headers: { ...bearer(token), "accept-language": lang },
  });

describe("first sign-in with a password someone else chose", () => {
  it("answers sfFirst and allows nothing but the change until it is done", async () => {
    await createAccount(t.db, { username: "newbie", password: "Given1234", roles: ["ENGINEER"], mustChangePassword: true });
    const tokens = await signInTokens(t.app, "newbie", "Given1234");
    expect(tokens.sfFirst).toBe(true);
    const headers = { ...bearer(tokens.access_token), "accept-language": "en-US" };
    expect((await t.app.inject({ method: "GET", url: "/sys/user/info", headers })).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/sys/menu/menus", headers })).statusCode).toBe(200);
    const blocked = await t.app.inject({ method: "GET", url: "/sys/menu/tree", headers });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().msg).toBe("Please change your password first (first sign-in or the password was reset)");

    expect(
      (await change(tokens.access_token, { oldPassword: "Given1234", newPassword: "Mine56789", confirmPassword: "Mine56789" }))
        .statusCode,
    ).toBe(200);
    const again = await signInTokens(t.app, "newbie", "Mine56789");
    expect(again.sfFirst).toBe(false);
    // the session that made the change goes on, now without the restriction
    expect((await t.app.inject({ method: "GET", url: "/sys/user/info", headers })).statusCode).toBe(200);
  });
});

describe("changing one's password", () => {
  it("refuses each broken rule with the field named, and keeps the old password", async () => {
    await createAccount(t.db, { username: "carol", password: "Carol1234" });
    const { access_token } = await signInTokens(t.app, "carol", "Carol1234");
    const cases: [object, string, string][] = [
      [
        { oldPassword: "Carol1234", newPassword: "short1", confirmPassword: "short2" },
        "confirmPassword",
        "The two passwords do not match",
      ],
      [
        { oldPassword: "Carol1234", newPassword: "onlyletters", confirmPassword: "onlyletters" },
        "newPassword",
        "The password must have 6 to 20 characters with both letters and digits",
      ],
      [
        { oldPassword: "Carol1234", newPassword: "a1", confirmPassword: "a1" },
        "newPassword",
        "The password must have 6 to 20 characters with both letters and digits",
      ],
      [
        { oldPassword: "Carol1234", newPassword: "Carol1234", confirmPassword: "Carol1234" },
        "newPassword",
        "The new password must differ from the current one",
      ],
      [
        { oldPassword: "Wrong1234", newPassword: "Carol5678", confirmPassword: "Carol5678" },
        "oldPassword",
        "The current password is wrong",
      ],
      [{ newPassword: "Carol5678", confirmPassword: "Carol5678" }, "oldPassword", "Current password is required"],
    ];
    for (const [body, field, message] of cases) {
      const response = await change(access_token, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().data.fields).toContainEqual({ field, message });
    }
    await expect(signInTokens(t.app, "carol", "Carol1234")).resolves.toBeTruthy();
  });

  it("translates the refusal", async () => {
    await createAccount(t.db, { username: "dora", password: "Dora12345" });
    const { access_token } = await signInTokens(t.app, "dora", "Dora12345");
    const response = await change(
      access_token,
      { oldPassword: "Dora12345", newPassword: "Dora56789", confirmPassword: "x" },
      "ja",
    );
    expect(response.json().data.fields).toEqual([{ field: "confirmPassword", message: "2つのパスワードが一致しません" }]);
  });

  it("ends the account's other sign-ins but not the one that changed it", async () => {
    await createAccount(t.db, { username: "erin", password: "Erin12345" });
    const here = await signInTokens(t.app, "erin", "Erin12345");
    const elsewhere = await signInTokens(t.app, "erin", "Erin12345");
    expect(
      (await change(here.access_token, { oldPassword: "Erin12345", newPassword: "Erin67890", confirmPassword: "Erin67890" }))
        .statusCode,
    ).toBe(200);
    const info = (token: string) => t.app.inject({ method: "GET", url: "/sys/user/info", headers: bearer(token) });
    expect((await info(here.access_token)).statusCode).toBe(200);
    expect((await info(elsewhere.access_token)).statusCode).toBe(401);
    const { rows } = await t.db.query<{ password_hash: string }>("SELECT password_hash FROM sys_user WHERE username = 'erin'");
    expect(rows[0]?.password_hash).toMatch(/^\$argon2id\$/);
  });
});

describe("the console's error log upload", () => {
  it("stores each entry with the operation log, under the uploader", async () => {
    await createAccount(t.db, { username: "fay", password: "Fay123456" });
    const { access_token } = await signInTokens(t.app, "fay", "Fay123456");
    const entry = {
      type: "error",
      url: "http://x/#/wel/index",
      message: "boom",
      stack: "at a",
      info: "render",
      time: "2025-07-31 10:00:00",
    };
    const response = await t.app.inject({
      method: "POST",
      url: "/admin/log/logs",
      payload: [entry, { ...entry, message: "bang", stack: null }],
      headers: bearer(access_token),
    });
    expect(response.json()).toMatchObject({ code: 0, data: { stored: 2 } });
    const { rows } = await t.db.query(
      "SELECT log_type, operator_name, request_uri, message, stack, params FROM sys_log WHERE log_type = 'client-error' ORDER BY id",
    );
    expect(rows).toEqual([
      {
        log_type: "client-error",
        operator_name: "fay",
        request_uri: entry.url,
        message: "boom",
        stack: "at a",
        params: { type: "error", info: "render", time: entry.time },
      },
      {
        log_type: "client-error",
        operator_name: "fay",
        request_uri: entry.url,
        message: "bang",
        stack: null,
        params: { type: "error", info: "render", time: entry.time },
      },
    ]);
    const empty = await t.app.inject({ method: "POST", url: "/admin/log/logs", payload: [], headers: bearer(access_token) });
    expect(empty.statusCode).toBe(400);
  });
});
