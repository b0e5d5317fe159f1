import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer } from "../helpers/accounts.ts";
import { buildWorld, WORLD_PASSWORD, type World } from "../helpers/channel-world.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";

let t: TestApp;
let world: World;
beforeAll(async () => {
  t = await createTestApp();
  world = await buildWorld(t.app, t.db);
});
afterAll(() => t.close());

const get = async (url: string, who: string) =>
  t.app.inject({ method: "GET", url, headers: { ...bearer(await world.token(who)), "accept-language": "en-US" } });
const post = async (url: string, who: string, payload: object) =>
  t.app.inject({
    method: "POST",
    url,
    payload,
    remoteAddress: "203.0.113.7",
    headers: { ...bearer(await world.token(who)), "accept-language": "en-US", "user-agent": "test-agent" },
  });
const login = (username: string, password: string) =>
  t.app.inject({ method: "POST", url: "/login?grant_type=admin", payload: { username, password } });

describe("the operation log", () => {
  it("records a change once, with operator, operation, method, masked parameters, status, duration and address", async () => {
    await t.db.query("DELETE FROM sys_log");
    const id = world.users.get("acc-I1b")?.id as number;
    await post("/sys/user/password/reset", "admin", { id, password: "Secret2025x" });
    const { rows } = await t.db.query("SELECT * FROM sys_log");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      log_type: "operation",
      operator_name: "admin",
      operation: "user.passwordReset",
      method: "POST",
      request_uri: "/sys/user/password/reset",
      params: { query: {}, params: {}, body: { id, password: "***" } },
      status: 200,
      error_code: null,
      ip: "203.0.113.7",
      user_agent: "test-agent",
    });
    expect(rows[0]?.duration_ms).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(rows)).not.toContain("Secret2025x");
  });

  it("records refused changes with their code and sign-ins without their secrets, but no reads", async () => {
    await world.token("acc-D1");
    await t.db.query("DELETE FROM sys_log");
    await get("/sys/user/page", "admin");
    await post("/sys/user/lock", "acc-D1", { id: world.users.get("acc-D2")?.id as number, status: 1 });
    await login("admin", "NotThePassword1");
    const { rows } = await t.db.query("SELECT operator_name, operation, status, error_code, params FROM sys_log ORDER BY id");
    expect(rows).toEqual([
      { operator_name: "acc-D1", operation: "user.lock", status: 404, error_code: "404", params: expect.anything() },
      {
        operator_name: "admin",
        operation: "auth.login",
        status: 426,
        error_code: "426",
        params: { query: { grant_type: "admin" }, params: {}, body: { username: "admin", password: "***" } },
      },
    ]);
  });

  it("pages, filters and deletes lines; staff see the lines of the accounts they see", async () => {
    await post("/admin/lsyuser/edit", "acc-D2", { id: world.users.get("u2a")?.id as number, name: "Renamed" });
    const mine = (await get("/sys/log/page?operation=endUser.edit&sort=createTime&order=desc", "admin")).json().data;
    expect(mine.records[0]).toMatchObject({ operatorName: "acc-D2", operation: "endUser.edit", method: "POST" });
    const engineer = (await get("/sys/log/page?size=500", "engineer")).json().data;
    expect(engineer.total).toBeGreaterThan(0);
    const id = mine.records[0].id;
    expect((await post("/sys/log/del", "engineer", { id })).statusCode).toBe(403);
    expect((await post("/sys/log/del", "admin", { id })).statusCode).toBe(200);
    expect((await post("/sys/log/del", "admin", { id })).statusCode).toBe(404);
  });

  it("filters by one operation exactly and exports the lines with operations named in the reader's language", async () => {
    await post("/admin/lsyuser/edit", "acc-D2", { id: world.users.get("u2a")?.id as number, name: "Renamed again" });
    const userEdits = (await get("/sys/log/page?operation=user.edit&size=500", "admin")).json().data;
    expect(userEdits.records.map((r: { operation: string }) => r.operation)).not.toContain("endUser.edit");
    const exported = await t.app.inject({
      method: "GET",
      url: "/sys/log/export?operation=endUser.edit",
      headers: { ...bearer(await world.token("admin")), "accept-language": "ja" },
    });
    expect(exported.statusCode).toBe(200);
    const [header, ...lines] = exported.body.trim().split("\r\n");
    expect(header).toContain("操作");
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toContain("エンドユーザーの変更");
    expect(exported.body).not.toContain("endUser.edit");
  });
});

describe("account deletion requests", () => {
  it("lets a user ask once, and a refusal leaves the account alone", async () => {
    const asked = await post("/admin/user/logout/apply", "u1b", { type: 1, reason: "Moving house", email: "u1b@example.com" });
    expect(asked.json().data).toMatchObject({ username: "u1b", status: 0, type: 1, email: "u1b@example.com", ip: "203.0.113.7" });
    const twice = await post("/admin/user/logout/apply", "u1b", { type: 1, reason: "again" });
    expect(twice.statusCode).toBe(409);
    const refused = await post("/admin/user/logout/review", "admin", {
      id: asked.json().data.id,
      status: 2,
      remarks: "Devices still under warranty",
    });
    expect(refused.json().data).toMatchObject({ status: 2, reviewer: "admin", remarks: "Devices still under warranty" });
    expect((await login("u1b", WORLD_PASSWORD)).statusCode).toBe(200);
    const again = await post("/admin/user/logout/review", "admin", { id: asked.json().data.id, status: 1 });
    expect(again.json().msg).toBe("This request has already been reviewed");
  });

  it("approval removes the account for good: no sign-in, no personal data, sub-users gone, devices unbound", async () => {
    const master = world.users.get("u2a")?.id as number;
    const sub = world.users.get("u2a-sub")?.id as number;
    await t.db.query(
      "UPDATE sys_user SET phone = '+39 333 999 0000', email = 'u2a@example.com', address = 'Via Roma 1' WHERE id = $1",
      [master],
    );
    const asked = (await post("/admin/user/logout/apply", "u2a", { type: 0, reason: "Two accounts" })).json().data;
    expect(asked.email).toBe("u2a@example.com");
    const approved = await post("/admin/user/logout/review", "admin", { id: asked.id, status: 1 });
    expect(approved.json().data).toMatchObject({
      status: 1,
      username: `deleted-${master}`,
      email: "u***@example.com",
      ip: "203.0.113.x",
    });
    expect((await login("u2a", WORLD_PASSWORD)).statusCode).toBe(426);
    expect((await login("u2a-sub", WORLD_PASSWORD)).statusCode).toBe(426);
    const { rows } = await t.db.query(
      "SELECT username, name, phone, email, address, deleted_at IS NOT NULL AS gone FROM sys_user WHERE id = ANY($1) ORDER BY id",
      [[master, sub]],
    );
    expect(rows).toEqual([
      { username: `deleted-${master}`, name: "", phone: null, email: null, address: "", gone: true },
      { username: `deleted-${sub}`, name: "", phone: null, email: null, address: "", gone: true },
    ]);
    const device = await t.db.query("SELECT owner_user_id FROM device WHERE sn = 'dev-2a'");
    expect(device.rows[0]).toEqual({ owner_user_id: null });
    expect((await get(`/admin/lsyuser/info?id=${master}`, "admin")).statusCode).toBe(404);
    const page = (await get("/admin/user/logout/page?status=1", "admin")).json().data;
    expect(page.records.map((r: { id: number }) => r.id)).toEqual([asked.id]);
    expect((await post("/admin/user/logout/del", "admin", { id: asked.id })).statusCode).toBe(200);
  });
});
