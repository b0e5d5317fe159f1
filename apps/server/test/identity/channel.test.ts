import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run, sql } from "../../src/db/sql.ts";
import type { AuthContext } from "../../src/modules/auth/auth.context.ts";
import { dataScope } from "../../src/modules/scope/data-scope.ts";
import { bearer } from "../helpers/accounts.ts";
import { buildWorld, type World } from "../helpers/channel-world.ts";
import { visibleTo } from "../helpers/scope-oracle.ts";
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
const org = (key: string) => world.orgs.get(key)?.id as number;
const user = (key: string) => world.users.get(key)?.id as number;

/** The caller as the server resolves it, to apply the scope function directly. */
async function context(who: string): Promise<AuthContext> {
  const token = await world.token(who);
  return t.app.auth.require({ headers: bearer(token) } as never);
}

describe("the channel hierarchy", () => {
  it("stores each organisation's path from the manufacturer down", async () => {
    const { rows } = await t.db.query<{ id: number; path: string }>("SELECT id, path FROM organisation WHERE id = $1", [
      org("I1a"),
    ]);
    expect(rows[0]?.path).toBe(`/${org("root")}/${org("D1")}/${org("D1a")}/${org("I1a")}/`);
  });

  it("shows a distributor its whole subtree with levels, and nothing of the other distributor", async () => {
    const page = (await get("/admin/lsyinstaller/page?size=100&sort=name&order=asc", "acc-D1")).json().data;
    expect(page.records.map((o: { name: string }) => o.name)).toEqual(
      ["D1", "D1a", "D1b", "I1a", "I1b", "I1hidden", "I1shown"].map((k) => `Company ${k}`),
    );
    expect(page.total).toBe(7);
    expect(page.records.find((o: { name: string }) => o.name === "Company D1a")).toMatchObject({
      kind: "dealer",
      level: 2,
      parentName: "Company D1",
    });
    expect((await get(`/admin/lsyinstaller/info?id=${org("D2a")}`, "acc-D1")).statusCode).toBe(404);
  });

  it("shows a dealer the installers its distributor marked 'show under dealers', to read but not to change", async () => {
    const list = (await get("/admin/lsyinstaller/list", "acc-D1a")).json().data;
    expect(list.map((o: { id: number }) => o.id).sort()).toEqual([org("D1a"), org("I1a"), org("I1shown")].sort());
    const edit = await post("/admin/lsyinstaller/edit", "acc-D1a", {
      id: org("I1shown"),
      name: "Taken over",
      authorisationCode: "AUTH-I1shown",
      contact: "x",
      email: "x@example.com",
    });
    expect(edit.statusCode).toBe(404);
  });

  it("lets a dealer add an installer below itself, never a dealer beside itself", async () => {
    const ok = await post("/admin/lsyinstaller/save", "acc-D1a", {
      kind: "installer",
      name: "Fresh installer",
      authorisationCode: "AUTH-fresh",
      contact: "Fay",
      email: "fresh@example.com",
      account: { username: "acc-fresh", password: "Fresh2025x" },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ kind: "installer", parentId: org("D1a"), account: "acc-fresh" });
    const dealer = await post("/admin/lsyinstaller/save", "acc-D1a", {
      kind: "dealer",
      parentId: org("D1"),
      name: "Sibling",
      contact: "x",
      email: "x@example.com",
      account: { username: "acc-sibling", password: "Fresh2025x" },
    });
    expect(dealer.statusCode).toBe(404);
    const wrongKind = await post("/admin/lsyinstaller/save", "admin", {
      kind: "dealer",
      parentId: org("I1a"),
      name: "Under an installer",
      contact: "x",
      email: "x@example.com",
      account: { username: "acc-under", password: "Fresh2025x" },
    });
    expect(wrongKind.json().data.fields).toEqual([
      { field: "parentId", message: "Parent cannot have an organisation of this kind below it" },
    ]);
  });

  it("requires an installer company's authorisation code, enterprise name, contact and e-mail, and keeps codes unique", async () => {
    const missing = await post(
      "/admin/lsyinstaller/save",
      "admin",
      { kind: "installer", account: { username: "acc-x", password: "Fresh2025x" } },
      "it",
    );
    const fields = missing.json().data.fields.map((f: { field: string }) => f.field);
    expect(fields).toEqual(expect.arrayContaining(["name", "contact", "email", "authorisationCode"]));
    const duplicate = await post("/admin/lsyinstaller/save", "admin", {
      kind: "installer",
      name: "Copy",
      authorisationCode: "auth-i1a",
      contact: "x",
      email: "x@example.com",
      account: { username: "acc-copy", password: "Fresh2025x" },
    });
    expect(duplicate.json().data.fields).toEqual([
      { field: "authorisationCode", message: "Authorisation code is already in use" },
    ]);
  });

  it("names the enterprise account's field when its user name is taken, and makes nothing", async () => {
    const before = (await get("/admin/lsyinstaller/page?size=100", "admin")).json().data.total;
    const taken = await post("/admin/lsyinstaller/save", "admin", {
      kind: "installer",
      name: "Taken account",
      authorisationCode: "auth-taken",
      contact: "x",
      email: "x@example.com",
      account: { username: "admin", password: "Fresh2025x" },
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().data.fields).toEqual([{ field: "account.username", message: "Account is already in use" }]);
    expect((await get("/admin/lsyinstaller/page?size=100", "admin")).json().data.total).toBe(before);
  });

  it("refuses to delete an organisation with anything below it", async () => {
    const refused = await post("/admin/lsyinstaller/del", "admin", { id: org("D1a") });
    expect(refused.statusCode).toBe(400);
    expect((await get(`/admin/lsyinstaller/info?id=${org("D1a")}`, "admin")).statusCode).toBe(200);
  });
});

describe("end users", () => {
  it("lets an installer see the users it serves, with their sub-users", async () => {
    const page = (await get("/admin/lsyuser/page?size=50&sort=username&order=asc", "acc-I1a")).json().data;
    expect(page.records.map((u: { username: string }) => u.username)).toEqual(["u1a", "u1a-sub"]);
    expect(page.records[0]).toMatchObject({ subUsers: 1, orgName: "Company I1a", timeZone: "Europe/Rome" });
    expect(page.records[1]).toMatchObject({ parentUsername: "u1a", orgId: org("I1a") });
  });

  it("lets a master user manage its sub-users and nobody else", async () => {
    const page = (await get("/admin/lsyuser/page", "u1a")).json().data;
    expect(page.records.map((u: { username: string }) => u.username).sort()).toEqual(["u1a", "u1a-sub"]);
    const created = await post("/admin/lsyuser/save", "u1a", {
      username: "u1a-sub2",
      password: "Child2025x",
      name: "Second child",
    });
    expect(created.json().data).toMatchObject({ parentUserId: user("u1a"), orgId: org("I1a") });
    expect((await post("/admin/lsyuser/lock", "u1a", { id: user("u2a"), status: 1 })).statusCode).toBe(404);
    expect((await get(`/admin/lsyuser/info?id=${user("u2a")}`, "u1a")).statusCode).toBe(404);
  });

  it("rejects a time zone that does not exist, naming the field", async () => {
    const response = await post("/admin/lsyuser/edit", "acc-I1a", { id: user("u1a"), name: "x", timeZone: "Mars/Olympus" });
    expect(response.json().data.fields).toEqual([{ field: "timeZone", message: "Time zone is not a known time zone" }]);
  });
});

describe("the scope function on devices", () => {
  it("gives every account exactly the devices of its part of the hierarchy, in SQL", async () => {
    for (const who of [
      "admin",
      "engineer",
      "acc-D1",
      "acc-D1a",
      "acc-D2",
      "acc-I1a",
      "acc-I1shown",
      "u1a",
      "u1a-sub",
      "u2a",
      "u1shown",
    ]) {
      const scope = dataScope(await context(who));
      const { rows } = await run<{ id: number }>(t.db, sql`SELECT d.id FROM device d WHERE ${scope.devices("d")} ORDER BY d.id`);
      const expected = [...visibleTo(world, world.users.get(who) as never).devices].sort((a, b) => a - b);
      expect(
        rows.map((r) => r.id),
        who,
      ).toEqual(expected);
    }
  });

  it("lets a dealer see the devices its installers installed but not the devices of a shown installer", async () => {
    const scope = dataScope(await context("acc-D1a"));
    const { rows } = await run<{ sn: string }>(t.db, sql`SELECT d.sn FROM device d WHERE ${scope.devices("d")}`);
    expect(rows.map((r) => r.sn)).toEqual(["dev-1a"]);
  });
});
