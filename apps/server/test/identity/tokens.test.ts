import { tokenClientAuthorization } from "@ess/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, signInTokens } from "../helpers/accounts.ts";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const refresh = (refreshToken: string, headers: Record<string, string> = { authorization: tokenClientAuthorization() }) =>
  t.app.inject({
    method: "POST",
    url: `/auth/oauth/token?grant_type=refresh_token&scope=server&refresh_token=${encodeURIComponent(refreshToken)}`,
    headers: { "tenant-id": "1", "accept-language": "en-US", ...headers },
  });
const info = (token: string) => t.app.inject({ method: "GET", url: "/sys/user/info", headers: bearer(token) });

describe("the token life cycle", () => {
  it("rotates: a refresh gives new tokens, the old access token stops working", async () => {
    const first = await signInTokens(t.app, "admin", ADMIN_PASSWORD);
    const response = await refresh(first.refresh_token);
    expect(response.statusCode).toBe(200);
    const next = response.json().data;
    expect(next).toMatchObject({ token_type: "bearer", expires_in: 3600 });
    expect(next.access_token).not.toBe(first.access_token);
    expect(next.refresh_token).not.toBe(first.refresh_token);
    expect((await info(next.access_token)).statusCode).toBe(200);
    expect((await info(first.access_token)).statusCode).toBe(401);
    // and the new refresh token rotates again
    expect((await refresh(next.refresh_token)).statusCode).toBe(200);
  });

  it("detects reuse: a refresh token used twice ends the whole sign-in", async () => {
    const first = await signInTokens(t.app, "admin", ADMIN_PASSWORD);
    const rotated = (await refresh(first.refresh_token)).json().data;
    const replay = await refresh(first.refresh_token);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ code: 1, errorCode: "401", msg: expect.stringContaining("already used") });
    // the legitimate holder's tokens die with it
    expect((await info(rotated.access_token)).statusCode).toBe(401);
    expect((await refresh(rotated.refresh_token)).statusCode).toBe(401);
  });

  it("leaves other sign-ins of the same account alone on reuse", async () => {
    const a = await signInTokens(t.app, "admin", ADMIN_PASSWORD);
    const b = await signInTokens(t.app, "admin", ADMIN_PASSWORD);
    await refresh(a.refresh_token);
    await refresh(a.refresh_token);
    expect((await info(b.access_token)).statusCode).toBe(200);
  });

  it("requires the console's client credential", async () => {
    const tokens = await signInTokens(t.app, "admin", ADMIN_PASSWORD);
    for (const headers of [{}, { authorization: `Basic ${btoa("other:client")}` }, bearer(tokens.access_token)]) {
      const response = await refresh(tokens.refresh_token, headers);
      expect(response.statusCode).toBe(401);
      expect(response.json().msg).toBe("The client is not authorised to request tokens");
    }
    // the refused attempts did not consume the refresh token
    expect((await refresh(tokens.refresh_token)).statusCode).toBe(200);
  });

  it("refuses a refresh token of another tenant or an unknown one", async () => {
    const tokens = await signInTokens(t.app, "admin", ADMIN_PASSWORD);
    const otherTenant = await refresh(tokens.refresh_token, { authorization: tokenClientAuthorization(), "tenant-id": "2" });
    expect(otherTenant.statusCode).toBe(401);
    expect((await refresh("x".repeat(43))).statusCode).toBe(401);
  });

  it("answers code 5 once the refresh token has expired", async () => {
    const tokens = await signInTokens(t.app, "admin", ADMIN_PASSWORD);
    await t.db.query(
      "UPDATE auth_session SET refresh_expires_at = now() - interval '1 second' WHERE user_id = 1 AND rotated_at IS NULL",
    );
    const response = await refresh(tokens.refresh_token);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 5, errorCode: "401" });
  });

  it("answers code 5 once the access token has expired, and a refresh then continues the session", async () => {
    const tokens = await signInTokens(t.app, "admin", ADMIN_PASSWORD);
    await t.db.query("UPDATE auth_session SET access_expires_at = now() - interval '1 second' WHERE rotated_at IS NULL");
    const expired = await info(tokens.access_token);
    expect(expired.json()).toMatchObject({ code: 5, errorCode: "401" });
    const renewed = (await refresh(tokens.refresh_token)).json().data;
    expect((await info(renewed.access_token)).statusCode).toBe(200);
  });

  it("sign-out revokes the access token and the refresh token of that sign-in", async () => {
    const first = await signInTokens(t.app, "admin", ADMIN_PASSWORD);
    const rotated = (await refresh(first.refresh_token)).json().data;
    const out = await t.app.inject({ method: "POST", url: "/sys/logout", headers: bearer(rotated.access_token) });
    expect(out.statusCode).toBe(200);
    expect((await info(rotated.access_token)).statusCode).toBe(401);
    expect((await refresh(rotated.refresh_token)).statusCode).toBe(401);
  });

  it("refuses a refresh for a locked account", async () => {
    const tokens = await signInTokens(t.app, "admin", ADMIN_PASSWORD);
    await t.db.query("UPDATE sys_user SET status = 1 WHERE username = 'admin'");
    try {
      expect((await refresh(tokens.refresh_token)).statusCode).toBe(401);
    } finally {
      await t.db.query("UPDATE sys_user SET status = 0 WHERE username = 'admin'");
    }
  });
});
