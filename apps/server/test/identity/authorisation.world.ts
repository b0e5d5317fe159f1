import { bearer } from "../helpers/accounts.ts";
import type { World, WorldUser } from "../helpers/channel-world.ts";
import { signIn, type TestApp } from "../helpers/test-app.ts";
import { DEVICE_SNS, OTA_SAMPLE } from "./authorisation.samples.ts";

/**
 * The scoped records the authorisation walk adds to the channel world, each made as its owner
 * would make it (through the API where a route exists), so that every scoped list has rows of
 * every branch to leak.
 */

/**
 * Bulk setting operations launched across the world: by the back office, by distributors and a
 * dealer (their roles are given the bulk permission here) and by an end user, each on its own device.
 */
export async function makeBulkOperations(t: TestApp, world: World) {
  await t.db.query(
    `INSERT INTO sys_role_permission (role_id, permission)
     SELECT id, 'device.param.bulk' FROM sys_role WHERE code IN ('DISTRIBUTOR', 'DEALER', 'END_USER') ON CONFLICT DO NOTHING`,
  );
  for (const [who, device] of [
    ["admin", "dev-2x"],
    ["acc-D1", "dev-1b"],
    ["acc-D1a", "dev-1a"],
    ["acc-D2", "dev-2a"],
    ["u1a", "dev-1a"],
  ] as const) {
    const response = await t.app.inject({
      method: "POST",
      url: "/admin/param/set/bulk",
      payload: { filter: { deviceIds: [world.devices.get(device)?.id] }, command: 4, queueIfOffline: true },
      headers: bearer(await world.token(who)),
    });
    if (response.statusCode !== 200) throw new Error(`bulk operation of ${who}: ${response.body}`);
  }
}

/**
 * A referral account for every master end user, and a cash-back for each device an end user owns,
 * referred by the next end user of the world (often of another branch). Channel roles may change
 * the cash-out state here, so the walk tries it in every scope.
 */
export async function makeReferrals(t: TestApp, world: World) {
  await t.db.query(
    `INSERT INTO sys_role_permission (role_id, permission)
     SELECT id, 'referral.cashOut' FROM sys_role WHERE code IN ('DISTRIBUTOR', 'DEALER') ON CONFLICT DO NOTHING`,
  );
  const masters = [...world.users.values()].filter((u) => u.type === 2 && u.master === null);
  const accounts = new Map<number, number>();
  for (const [i, user] of masters.entries()) {
    const row = await t.db.query<{ id: number }>(
      "INSERT INTO referral_account (tenant_id, user_id, code) VALUES (1, $1, $2) RETURNING id",
      [user.id, `WALK${String(i).padStart(4, "2")}`],
    );
    accounts.set(user.id, row.rows[0]?.id as number);
  }
  const made: { id: number; referrer: number; referee: number }[] = [];
  for (const device of world.devices.values()) {
    const owner = device.owner ? world.users.get(device.owner) : undefined;
    if (!owner || owner.master !== null) continue;
    const referrer = masters[(masters.indexOf(owner) + 1) % masters.length] as WorldUser;
    if (referrer.id === owner.id) continue;
    const row = await t.db.query<{ id: number }>(
      `INSERT INTO referral_cashback (tenant_id, referrer_account_id, referee_account_id, device_id)
       VALUES (1, $1, $2, $3) RETURNING id`,
      [accounts.get(referrer.id), accounts.get(owner.id), device.id],
    );
    made.push({ id: row.rows[0]?.id as number, referrer: referrer.id, referee: owner.id });
  }
  return made;
}

/**
 * A grid site for every device, with a command and a received document each (rows the aggregator
 * client writes), so that the IEEE centre's lists have something to leak; and the devices' serial
 * numbers for the routes that name a device by it.
 */
export async function makeGridSites(t: TestApp, world: World) {
  for (const device of world.devices.values()) DEVICE_SNS.set(device.id, device.key);
  await t.db.query(
    `INSERT INTO grid_site (tenant_id, device_id, lfdi, sfdi) SELECT tenant_id, id, lpad(upper(to_hex(id)), 40, '0'), id::text FROM device`,
  );
  await t.db.query(
    `INSERT INTO grid_command (tenant_id, site_id, mrid, kind, mode) SELECT tenant_id, id, 'WALK' || id, 1, 0 FROM grid_site`,
  );
  await t.db.query(
    `INSERT INTO grid_exchange (tenant_id, site_id, direction, method, path, body) SELECT tenant_id, id, 1, 'GET', '/edev', '<EndDevice/>' FROM grid_site`,
  );
}

/** A firmware version and one OTA campaign launched in each organisation (and one by the back office). */
export async function makeCampaigns(t: TestApp, world: World) {
  const file = await t.db.query<{ id: number }>(
    `INSERT INTO stored_file (tenant_id, name, size, sha256, crc32) VALUES (1, 'fw.bin', 10, repeat('a', 64), '00000000') RETURNING id`,
  );
  const version = await t.db.query<{ id: number }>(
    `INSERT INTO firmware_version (tenant_id, type, version_code, version_name, file_id, state)
     VALUES (1, 3, '9.99', 'Walk', $1, 1) RETURNING id`,
    [file.rows[0]?.id],
  );
  OTA_SAMPLE.versionId = version.rows[0]?.id as number;
  const channel = [...world.orgs.values()].filter((o) => o.kind !== "manufacturer");
  for (const org of [null, ...channel]) {
    await t.db.query(
      `INSERT INTO ota_campaign (tenant_id, org_id, version_id, name, times, batch_size, batch_interval_s, state)
       VALUES (1, $1, $2, $3, ARRAY['2030-01-01T00:00:00Z'::timestamptz], 10, 60, 'paused')`,
      [org?.id ?? null, OTA_SAMPLE.versionId, `Campaign of ${org?.key ?? "back office"}`],
    );
  }
  const byId = new Map(channel.map((o) => [o.id, o.key]));
  return {
    /** Whether organisation `orgId` lies in the subtree of the caller's organisation. */
    below(user: WorldUser, orgId: number) {
      for (let key = byId.get(orgId) ?? null; key; key = world.orgs.get(key)?.parent ?? null) if (key === user.org) return true;
      return false;
    },
  };
}

/**
 * A draft message written by the back office and by each distributor and dealer (to everyone they
 * serve), and one feedback item from each end user, through the API.
 */
export async function makeMessagesAndFeedback(t: TestApp, world: World) {
  const senders = ["admin", "acc-D1", "acc-D1a", "acc-D2", "acc-D2a"];
  const admin = await signIn(t.app);
  for (const who of senders) {
    const response = await t.app.inject({
      method: "POST",
      url: "/admin/message/save",
      payload: { title: `From ${who}`, summary: "Summary", content: "Content", terminal: "both", audience: "everyone" },
      headers: bearer(who === "admin" ? admin : await world.token(who)),
    });
    if (response.statusCode !== 200) throw new Error(`message of ${who}: ${response.body}`);
  }
  for (const who of ["u1a", "u1a-sub", "u1b", "u2a"]) {
    const response = await t.app.inject({
      method: "POST",
      url: "/app/feedback/save",
      payload: { type: 2, content: `From ${who}` },
      headers: bearer(await world.token(who)),
    });
    if (response.statusCode !== 200) throw new Error(`feedback of ${who}: ${response.body}`);
  }
}
