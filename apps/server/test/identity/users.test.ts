import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer } from "../helpers/accounts.ts";
import { buildWorld, WORLD_PASSWORD, type World } from "../helpers/channel-world.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { worldClient } from "../helpers/world-client.ts";

let t: TestApp;
let world: World;
beforeAll(async () => {
  t = await createTestApp();
  world = await buildWorld(t.app, t.db);
});
afterAll(() => t.close());

const get = (url: string, who: string, lang?: string) => worldClient(t, world).get(url, who, lang);
const post = (url: string, who: string, payload: object, lang?: string) => worldClient(t, world).post(url, who, payload, lang);
const roleId = async (code: string) =>
  (await t.db.query<{ id: number }>("SELECT id FROM sys_role WHERE code = $1", [code])).rows[0]?.id as number;
const login = (username: string, password: string) =>
  t.app.inject({
    method: "POST",
    url: "/login?grant_type=admin",
    payload: { username, password },
    headers: { "accept-language": "en-US" },
  });

describe("accounts", () => {
  it("pages, filters and sorts on the server", async () => {
    const first = (await get("/sys/user/page?size=3&current=1&sort=username&order=asc&userType=1", "admin")).json().data;
    const second = (await get("/sys/user/page?size=3&current=2&sort=username&order=asc&userType=1", "admin")).json().data;
    expect(first).toMatchObject({ size: 3, current: 1, total: 11, pages: 4 });
    const names = [...first.records, ...second.records].map((u: { username: string }) => u.username);
    expect(names).toEqual([...names].sort());
    expect(new Set(names).size).toBe(6);
    const filtered = (await get("/sys/user/page?username=d1a", "admin")).json().data;
    expect(filtered.records.map((u: { username: string }) => u.username)).toEqual(["acc-D1a"]);
    expect(filtered.records[0].roles).toEqual([{ id: await roleId("DEALER"), code: "DEALER", name: "Dealer" }]);
  });

  it("creates an account that must change its password, with roles for its type only", async () => {
    const wrongType = await post("/sys/user/save", "admin", {
      username: "ops",
      password: "Start2025x",
      name: "Ops",
      userType: 0,
      roleIds: [await roleId("DEALER")],
    });
    expect(wrongType.json().data.fields).toEqual([
      { field: "roleIds", message: "Roles contains a role meant for another kind of account" },
    ]);
    const created = await post("/sys/user/save", "admin", {
      username: "ops",
      password: "Start2025x",
      name: "Ops",
      userType: 0,
      roleIds: [await roleId("ENGINEER")],
    });
    expect(created.json().data).toMatchObject({ username: "ops", userType: 0, status: 0, orgName: "Default" });
    expect((await login("ops", "Start2025x")).json().data.sfFirst).toBe(true);
    const taken = await post(
      "/sys/user/save",
      "admin",
      { username: "OPS", password: "Start2025x", name: "Ops", userType: 0, roleIds: [await roleId("ENGINEER")] },
      "es",
    );
    expect(taken.json().data.fields).toEqual([{ field: "username", message: expect.stringContaining("ya está en uso") }]);
  });

  it("lets a distributor create staff in its subtree, never back office staff nor more rights than it holds", async () => {
    const staff = await post("/sys/user/save", "acc-D1", {
      username: "d1-staff",
      password: "Start2025x",
      name: "Staff",
      userType: 1,
      orgId: world.orgs.get("D1a")?.id,
      roleIds: [await roleId("DEALER")],
    });
    expect(staff.statusCode).toBe(200);
    const backOffice = await post("/sys/user/save", "acc-D1", {
      username: "d1-bo",
      password: "Start2025x",
      name: "x",
      userType: 0,
      roleIds: [await roleId("AGENT")],
    });
    expect(backOffice.statusCode).toBe(403);
    const otherTree = await post("/sys/user/save", "acc-D1", {
      username: "d1-x",
      password: "Start2025x",
      name: "x",
      userType: 1,
      orgId: world.orgs.get("D2")?.id,
      roleIds: [await roleId("DEALER")],
    });
    expect(otherTree.statusCode).toBe(404);
    await post("/sys/role/save", "admin", {
      roleCode: "POWER_DEALER",
      roleName: "Power dealer",
      userType: 1,
      permissions: ["org.view", "sys.role.edit"],
    });
    const escalate = await post("/sys/user/save", "acc-D1", {
      username: "d1-y",
      password: "Start2025x",
      name: "x",
      userType: 1,
      roleIds: [await roleId("POWER_DEALER")],
    });
    expect(escalate.statusCode).toBe(403);
    expect(escalate.json().msg).toBe(
      "You cannot hand out more permissions than you hold, nor manage an account that holds more than you",
    );
    const roles = (await get("/sys/role/list?userType=1", "acc-D1")).json().data.map((r: { roleCode: string }) => r.roleCode);
    expect(roles).toEqual(["DISTRIBUTOR", "DEALER", "INSTALLER"]);
  });

  it("locks an account (its sessions end) and unlocks it, releasing a lockout from failed sign-ins", async () => {
    const id = world.users.get("acc-I1b")?.id as number;
    const token = await world.token("acc-I1b");
    expect((await post("/sys/user/lock", "admin", { id, status: 1 })).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/sys/user/info", headers: bearer(token) })).statusCode).toBe(401);
    expect((await login("acc-I1b", WORLD_PASSWORD)).json().msg).toBe("This account is locked; please contact the administrator");
    await t.db.query("UPDATE sys_user SET failed_logins = 5, locked_until = now() + interval '1 hour' WHERE id = $1", [id]);
    expect((await post("/sys/user/lock", "admin", { id, status: 0 })).statusCode).toBe(200);
    expect((await login("acc-I1b", WORLD_PASSWORD)).statusCode).toBe(200);
    expect((await t.db.query("SELECT failed_logins, locked_until FROM sys_user WHERE id = $1", [id])).rows[0]).toEqual({
      failed_logins: 0,
      locked_until: null,
    });
  });

  it("resets a password: the old one stops working, the new one must be changed", async () => {
    const id = world.users.get("acc-I2a")?.id as number;
    expect((await post("/sys/user/password/reset", "acc-D2", { id, password: "Reset2025x" })).statusCode).toBe(200);
    expect((await login("acc-I2a", WORLD_PASSWORD)).statusCode).toBe(426);
    expect((await login("acc-I2a", "Reset2025x")).json().data.sfFirst).toBe(true);
    expect((await post("/sys/user/password/reset", "acc-D1", { id, password: "Reset2025y" })).statusCode).toBe(404);
  });

  it("deletes an account for good: anonymised, signed out, its name free again", async () => {
    const created = (
      await post("/sys/user/save", "admin", {
        username: "temp",
        password: "Start2025x",
        name: "Temp Person",
        phone: "+39 333 000 1111",
        userType: 0,
        roleIds: [await roleId("AGENT")],
      })
    ).json().data;
    expect((await post("/sys/user/del", "admin", { id: created.id })).statusCode).toBe(200);
    const { rows } = await t.db.query(
      "SELECT username, name, phone, deleted_at IS NOT NULL AS deleted FROM sys_user WHERE id = $1",
      [created.id],
    );
    expect(rows[0]).toEqual({ username: `deleted-${created.id}`, name: "", phone: null, deleted: true });
    expect((await get(`/sys/user/${created.id}`, "admin")).statusCode).toBe(404);
    expect((await login("temp", "Start2025x")).statusCode).toBe(426);
    expect(
      (
        await post("/sys/user/save", "admin", {
          username: "temp",
          password: "Start2025x",
          name: "New Temp",
          userType: 0,
          roleIds: [await roleId("AGENT")],
        })
      ).statusCode,
    ).toBe(200);
  });

  it("exports the same scoped accounts as CSV", async () => {
    const response = await get("/sys/user/export?sort=username&order=asc", "acc-D2", "en-US");
    expect(response.headers["content-type"]).toBe("text/csv; charset=utf-8");
    const lines = response.body
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe("ID,Account,Name,Telephone,E-mail,User type,Status,Organisation,Roles,Created");
    expect(lines.slice(1).map((l) => l.split(",")[1])).toEqual(["acc-D2", "acc-D2a", "acc-I2a", "acc-I2shown", "u2a", "u2a-sub"]);
  });
});

describe("roles", () => {
  it("adds a role with a subset of permissions, changes and deletes it", async () => {
    const created = await post("/sys/role/save", "admin", {
      roleCode: "AUDITOR",
      roleName: "Auditor",
      roleDesc: "Reads the log",
      userType: 0,
      permissions: ["sys.log.view"],
    });
    expect(created.json().data).toMatchObject({ roleCode: "AUDITOR", permissions: ["sys.log.view"], users: 0, builtin: false });
    const id = created.json().data.id;
    const edited = await post("/sys/role/edit", "admin", {
      id,
      roleCode: "AUDITOR",
      roleName: "Auditor",
      userType: 0,
      permissions: ["sys.log.view", "sys.user.view"],
    });
    expect(edited.json().data.permissions).toEqual(["sys.log.view", "sys.user.view"]);
    const duplicate = await post("/sys/role/save", "admin", { roleCode: "AUDITOR", roleName: "x", userType: 0, permissions: [] });
    expect(duplicate.json().data.fields).toEqual([{ field: "roleCode", message: "Role identifier is already in use" }]);
    expect((await post("/sys/role/del", "admin", { id })).statusCode).toBe(200);
    expect((await get(`/sys/role/info?id=${id}`, "admin")).statusCode).toBe(404);
  });

  it("keeps the administrator role fixed and a role in use", async () => {
    const admin = await roleId("ADMIN");
    expect(
      (await post("/sys/role/edit", "admin", { id: admin, roleCode: "ADMIN", roleName: "x", userType: 0, permissions: [] }))
        .statusCode,
    ).toBe(400);
    expect((await post("/sys/role/del", "admin", { id: await roleId("DEALER") })).json().msg).toBe(
      "Accounts still hold this role; it cannot be deleted",
    );
  });

  it("gives the permission tree in the caller's language", async () => {
    const tree = (await get("/sys/role/permission/tree", "admin", "it")).json().data;
    const sys = tree.find((n: { key: string }) => n.key === "sys");
    expect(sys.label).toBe("Sistema");
    expect(sys.children[0].children[0]).toEqual({ key: "sys.user.view", label: expect.any(String), children: [] });
  });
});
