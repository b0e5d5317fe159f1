import type { FastifyInstance } from "fastify";
import type { Db } from "../../src/db/db.ts";
import { bearer } from "./accounts.ts";
import { signIn } from "./test-app.ts";

/** The password of every account of the world. */
export const WORLD_PASSWORD = "World2025x";

export interface WorldOrg {
  key: string;
  id: number;
  kind: "manufacturer" | "distributor" | "dealer" | "installer";
  parent: string | null;
  showUnderDealers: boolean;
  account: string | null;
}
export interface WorldUser {
  key: string;
  id: number;
  username: string;
  /** back office, channel staff (the org's account) or end user */
  type: 0 | 1 | 2;
  org: string | null;
  master: string | null;
}
export interface WorldDevice {
  key: string;
  id: number;
  org: string;
  installer: string;
  owner: string | null;
}

export interface World {
  orgs: Map<string, WorldOrg>;
  users: Map<string, WorldUser>;
  devices: Map<string, WorldDevice>;
  /** Signs in as a world account (password already changed) and returns its access token. */
  token(userKey: string): Promise<string>;
}

async function ok(response: { statusCode: number; body: string; json(): unknown }, what: string) {
  if (response.statusCode !== 200) throw new Error(`${what} failed: ${response.body}`);
  return (response.json() as { data: { id: number } }).data;
}

/**
 * A channel world built through the API as the administrator: two distributors, dealers under
 * each, installer companies (one shown under dealers, one not), end users with a sub-user,
 * back office staff, and devices sold and installed across it. Every account can be used at once
 * (its first-password change is marked done).
 */
export async function buildWorld(app: FastifyInstance, db: Db): Promise<World> {
  const admin = await signIn(app);
  const orgs = new Map<string, WorldOrg>();
  const users = new Map<string, WorldUser>();
  const devices = new Map<string, WorldDevice>();
  const root = (await db.query<{ id: number }>("SELECT id FROM organisation WHERE kind = 'manufacturer'")).rows[0]?.id as number;
  orgs.set("root", { key: "root", id: root, kind: "manufacturer", parent: null, showUnderDealers: false, account: null });

  const post = (url: string, payload: object, token = admin) =>
    app.inject({ method: "POST", url, payload, headers: bearer(token) });

  // The first-password change is tested on its own; here it is marked done to keep the world quick.
  async function activate(username: string) {
    await db.query("UPDATE sys_user SET must_change_password = false WHERE username = $1", [username]);
  }

  async function org(key: string, kind: WorldOrg["kind"], parent: string, showUnderDealers = false) {
    const account = `acc-${key}`;
    const data = await ok(
      await post("/admin/lsyinstaller/save", {
        kind,
        parentId: orgs.get(parent)?.id,
        name: `Company ${key}`,
        authorisationCode: `AUTH-${key}`,
        contact: `Contact ${key}`,
        email: `${key.toLowerCase()}@example.com`,
        showUnderDealers,
        account: { username: account, password: WORLD_PASSWORD },
      }),
      `creating ${key}`,
    );
    orgs.set(key, { key, id: data.id, kind, parent, showUnderDealers, account });
    const userId = (await db.query<{ id: number }>("SELECT id FROM sys_user WHERE username = $1", [account])).rows[0]
      ?.id as number;
    users.set(account, { key: account, id: userId, username: account, type: 1, org: key, master: null });
    await activate(account);
  }

  async function endUser(key: string, orgKey: string, master: string | null = null) {
    const data = await ok(
      await post("/admin/lsyuser/save", {
        username: key,
        password: WORLD_PASSWORD,
        name: `User ${key}`,
        orgId: master ? null : orgs.get(orgKey)?.id,
        parentUserId: master ? users.get(master)?.id : null,
        timeZone: "Europe/Rome",
      }),
      `creating ${key}`,
    );
    users.set(key, { key, id: data.id, username: key, type: 2, org: orgKey, master });
    await activate(key);
  }

  await org("D1", "distributor", "root");
  await org("D2", "distributor", "root");
  await org("D1a", "dealer", "D1");
  await org("D1b", "dealer", "D1");
  await org("D2a", "dealer", "D2");
  await org("I1a", "installer", "D1a");
  await org("I1b", "installer", "D1b");
  await org("I2a", "installer", "D2a");
  await org("I1shown", "installer", "D1", true);
  await org("I1hidden", "installer", "D1");
  await org("I2shown", "installer", "D2", true);
  await endUser("u1a", "I1a");
  await endUser("u1a-sub", "I1a", "u1a");
  await endUser("u1b", "I1b");
  await endUser("u2a", "I2a");
  await endUser("u2a-sub", "I2a", "u2a");
  await endUser("u1shown", "I1shown");

  for (const [key, role] of [
    ["engineer", "ENGINEER"],
    ["agent", "AGENT"],
  ] as const) {
    const data = await ok(
      await post("/sys/user/save", {
        username: key,
        password: WORLD_PASSWORD,
        name: key,
        userType: 0,
        roleIds: [await roleId(db, role)],
      }),
      `creating ${key}`,
    );
    users.set(key, { key, id: data.id, username: key, type: 0, org: "root", master: null });
    await activate(key);
  }
  const adminId = (await db.query<{ id: number }>("SELECT id FROM sys_user WHERE username = 'admin'")).rows[0]?.id as number;
  users.set("admin", { key: "admin", id: adminId, username: "admin", type: 0, org: "root", master: null });

  for (const [key, seller, installer, owner] of [
    ["dev-1a", "D1a", "I1a", "u1a"],
    ["dev-1b", "D1b", "I1b", "u1b"],
    ["dev-1shown", "D1", "I1shown", "u1shown"],
    ["dev-2a", "D2a", "I2a", "u2a"],
    ["dev-2x", "D2", "I2shown", null],
  ] as const) {
    const { rows } = await db.query<{ id: number }>(
      "INSERT INTO device (tenant_id, sn, name, org_id, installer_org_id, owner_user_id) VALUES (1, $1, $1, $2, $3, $4) RETURNING id",
      [key, orgs.get(seller)?.id, orgs.get(installer)?.id, owner ? users.get(owner)?.id : null],
    );
    devices.set(key, { key, id: rows[0]?.id as number, org: seller, installer, owner });
  }

  const tokens = new Map<string, string>();
  return {
    orgs,
    users,
    devices,
    async token(userKey) {
      const cached = tokens.get(userKey);
      if (cached) return cached;
      const user = users.get(userKey);
      if (!user) throw new Error(`no user ${userKey}`);
      const token = user.username === "admin" ? admin : await signIn(app, user.username, WORLD_PASSWORD);
      tokens.set(userKey, token);
      return token;
    },
  };
}

async function roleId(db: Db, code: string) {
  return (await db.query<{ id: number }>("SELECT id FROM sys_role WHERE code = $1", [code])).rows[0]?.id as number;
}
