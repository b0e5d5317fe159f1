import { API, type RouteContract, SCOPED_ENTITIES, type ScopedEntity, type ScopedRef } from "@ess/contracts";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer } from "../helpers/accounts.ts";
import { buildWorld, type World, type WorldUser } from "../helpers/channel-world.ts";
import { visibleTo } from "../helpers/scope-oracle.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { SAMPLES, type Sample, type SampleIds } from "./authorisation.samples.ts";
import {
  makeBulkOperations,
  makeCampaigns,
  makeGridSites,
  makeMessagesAndFeedback,
  makeReferrals,
} from "./authorisation.world.ts";

/**
 * Signs in as every account of the channel world and walks EVERY route of the API registry that
 * declares scoped data: no caller may read or change a record outside its scope (403 or 404, and
 * nothing of it in lists, totals or exports). New routes are covered by their declaration; a
 * scoped route that changes data needs a sample request in authorisation.samples.ts.
 */
let t: TestApp;
let world: World;
/** Every scoped record of the world, by entity. */
const records = new Map<ScopedEntity, Set<number>>();
/** What each caller may see, from the independent reading of the rules. */
const visible = new Map<string, Record<ScopedEntity, Set<number>>>();

beforeAll(async () => {
  t = await createTestApp();
  world = await buildWorld(t.app, t.db);
  for (const who of ["u1a-sub", "u2a", "acc-I1a"]) {
    await t.app.inject({
      method: "POST",
      url: "/admin/user/logout/apply",
      payload: { type: 2, reason: who },
      headers: bearer(await world.token(who)),
    });
  }
  for (const who of world.users.keys()) await world.token(who); // every account signs in: log lines for all
  await makeBulkOperations(t, world);
  await makeMessagesAndFeedback(t, world);
  // A firmware version and one OTA campaign launched in each organisation (and one by the back office).
  const campaignOrgs = await makeCampaigns(t, world);
  const referrals = await makeReferrals(t, world);
  await makeGridSites(t, world);
  const campaignRows = (await t.db.query<{ id: number; org_id: number | null }>("SELECT id, org_id FROM ota_campaign")).rows;
  const ids = async (table: string) =>
    new Set((await t.db.query<{ id: number }>(`SELECT id FROM ${table}`)).rows.map((r) => r.id));
  records.set("organisation", new Set([...world.orgs.values()].filter((o) => o.kind !== "manufacturer").map((o) => o.id)));
  records.set("user", new Set([...world.users.values()].map((u) => u.id)));
  records.set("device", new Set([...world.devices.values()].map((d) => d.id)));
  records.set("log", await ids("sys_log"));
  records.set("cancellation", await ids("account_cancellation"));
  records.set("campaign", await ids("ota_campaign"));
  records.set("bulk", await ids("device_bulk_operation"));
  records.set("referral", new Set(referrals.map((r) => r.id)));
  records.set("message", await ids("message"));
  records.set("feedback", await ids("feedback"));
  const messages = (await t.db.query<{ id: number; created_by: number }>("SELECT id, created_by FROM message")).rows;
  const feedback = (await t.db.query<{ id: number; user_id: number }>("SELECT id, user_id FROM feedback")).rows;
  const bulks = (await t.db.query<{ id: number; created_by: number }>("SELECT id, created_by FROM device_bulk_operation")).rows;
  const logOperators = (await t.db.query<{ id: number; operator_id: number | null }>("SELECT id, operator_id FROM sys_log")).rows;
  const cancellations = (await t.db.query<{ id: number; user_id: number }>("SELECT id, user_id FROM account_cancellation")).rows;
  for (const user of world.users.values()) {
    const v = visibleTo(world, user);
    const all = user.type === 0;
    visible.set(user.key, {
      organisation: v.organisations,
      user: v.users,
      device: v.devices,
      log: new Set(logOperators.filter((l) => all || (l.operator_id !== null && v.users.has(l.operator_id))).map((l) => l.id)),
      cancellation: new Set(cancellations.filter((c) => all || v.users.has(c.user_id)).map((c) => c.id)),
      // Channel staff see the campaigns launched in their organisation's subtree; end users none.
      campaign: new Set(
        campaignRows
          .filter((c) => all || (user.type === 1 && c.org_id !== null && campaignOrgs.below(user, c.org_id)))
          .map((c) => c.id),
      ),
      // Bulk operations: those launched by an account the caller sees.
      bulk: new Set(bulks.filter((b) => all || v.users.has(b.created_by)).map((b) => b.id)),
      // Referral cash-backs: those whose referrer or referee is an account the caller sees.
      referral: new Set(referrals.filter((r) => all || v.users.has(r.referrer) || v.users.has(r.referee)).map((r) => r.id)),
      // Messages: those sent by an account the caller sees; feedback: that of an account it sees.
      message: new Set(messages.filter((m) => all || v.users.has(m.created_by)).map((m) => m.id)),
      feedback: new Set(feedback.filter((f) => all || v.users.has(f.user_id)).map((f) => f.id)),
    });
  }
}, 120_000);
afterAll(() => t.close());

const routes = Object.entries(API).flatMap(([group, list]) =>
  Object.entries(list as Record<string, RouteContract>).map(([name, contract]) => ({ id: `${group}.${name}`, contract })),
);
const scoped = routes.filter((r) => r.contract.scope && (SCOPED_ENTITIES as readonly string[]).includes(r.contract.scope.entity));
const entityOf = (c: RouteContract) => (c.scope as { entity: ScopedEntity }).entity;
const callers = () => [...world.users.values()];

async function call(contract: RouteContract, who: WorldUser, input: SampleIds) {
  const url = contract.path.replace(/:(\w+)/g, (_, name: string) => String(input.params?.[name] ?? 0));
  const query = new URLSearchParams(
    Object.entries(input.query ?? {}).map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();
  return t.app.inject({
    method: contract.method,
    url: query ? `${url}?${query}` : url,
    ...(input.body === undefined ? {} : { payload: input.body as object }),
    headers: { ...bearer(await world.token(who.key)), "accept-language": "en-US" },
  });
}

/** The rows the test must not be able to change: a digest of every scoped table. */
async function snapshot() {
  const tables = [
    "organisation",
    "sys_user",
    "sys_user_role",
    "device",
    "account_cancellation",
    "sys_role_permission",
    "ota_campaign",
    "device_upgrade",
    "referral_cashback",
    "grid_site",
    "message",
    "message_recipient",
    "feedback",
    "feedback_reply",
  ];
  const parts = await Promise.all(
    tables.map(
      async (table) => (await t.db.query(`SELECT md5(string_agg(x::text, ',' ORDER BY x::text)) AS h FROM ${table} x`)).rows[0],
    ),
  );
  const logs = (
    await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM sys_log WHERE log_type = 'client-error' OR id <= $1", [
      Math.max(...(records.get("log") ?? [0])),
    ])
  ).rows[0];
  return JSON.stringify([parts, logs]);
}

describe("the authorisation of every scoped route", () => {
  it("knows the scoped routes and has a sample for each that takes record ids", () => {
    expect(scoped.length).toBeGreaterThanOrEqual(20);
    const takesIds = (r: (typeof scoped)[number]) =>
      ((r.contract.scope as { refs?: { in: string; field: string }[] }).refs ?? []).some(
        (ref) => ref.in !== "query" || ref.field === "id",
      );
    const refsWithoutSample = scoped.filter((r) => takesIds(r) && !SAMPLES[r.id]).map((r) => r.id);
    expect(refsWithoutSample).toEqual([]);
  });

  // Routes with a sample read one record (by id, or by the device a device-data route names):
  // they are walked by the refusal test below, not as lists.
  it.each(scoped.filter((r) => r.contract.method === "GET" && !SAMPLES[r.id]).map((r) => [r.id, r] as const))(
    "%s lists only records in the caller's scope, with honest totals",
    async (_, { id, contract }) => {
      const entity = entityOf(contract);
      for (const who of callers()) {
        const response = await call(contract, who, { query: contract.query && "shape" in contract.query ? { size: 500 } : {} });
        if (response.statusCode === 403) continue;
        expect(response.statusCode, `${id} as ${who.key}: ${response.body.slice(0, 200)}`).toBe(200);
        const allowed = visible.get(who.key)?.[entity] as Set<number>;
        let ids: number[];
        if (contract.raw && String(response.headers["content-type"]).includes("spreadsheetml")) {
          // A workbook: the first column of every row after the header is the record's id.
          const book = new ExcelJS.Workbook();
          await book.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
          ids = [];
          book.worksheets[0]?.eachRow((row, n) => {
            if (n > 1) ids.push(Number(row.getCell(1).value));
          });
          expect(ids.every(Number.isInteger), `${id} as ${who.key}: ids in the first column`).toBe(true);
        } else if (contract.raw)
          ids = response.body
            .replace(/^\uFEFF/, "")
            .trim()
            .split("\r\n")
            .slice(1)
            .filter(Boolean)
            .map((line) => Number(line.split(",")[0]));
        else {
          const data = response.json().data;
          ids = (Array.isArray(data) ? data : data.records).map((r: { id: number }) => r.id);
          if (!Array.isArray(data)) expect(data.total, `${id} total as ${who.key}`).toBe(ids.length);
        }
        const leaked = ids.filter((i) => !allowed.has(i));
        expect(leaked, `${id} leaks to ${who.key}`).toEqual([]);
      }
    },
  );

  it.each(scoped.filter((r) => SAMPLES[r.id]).map((r) => [r.id, r] as const))(
    "%s refuses every record outside the caller's scope and changes nothing",
    async (_, { id, contract }) => {
      const before = await snapshot();
      const samples: Sample = SAMPLES[id] ?? { refs: {} };
      for (const [ref, build] of Object.entries(samples.refs) as [ScopedEntity, (id: number) => SampleIds][]) {
        const entity = ref as ScopedEntity;
        for (const who of callers()) {
          const allowed = visible.get(who.key)?.[entity] as Set<number>;
          const outside = [...(records.get(entity) ?? [])].filter((r) => !allowed.has(r));
          for (const record of outside) {
            const input = build(record);
            if (input.body !== undefined && contract.body)
              expect(contract.body.safeParse(input.body).success, `${id} sample is valid`).toBe(true);
            const response = await call(contract, who, input);
            expect([403, 404], `${id} as ${who.key} on ${entity} ${record}: ${response.body.slice(0, 200)}`).toContain(
              response.statusCode,
            );
            // Without the permission every id gets the same 403: one is enough.
            if (response.statusCode === 403 && response.json().msg === "You do not have permission for this operation") break;
          }
          // A read by id of a record in scope works for a caller who holds the permission.
          const list = samples.byId && routes.find((r) => r.id === samples.byId?.list);
          if (list) {
            const listed = await call(list.contract, who, { query: { size: 500 } });
            const inside = listed.statusCode === 200 ? (listed.json().data.records[0]?.id as number | undefined) : undefined;
            if (inside !== undefined) {
              const response = await call(contract, who, build(inside));
              expect(response.statusCode, `${id} as ${who.key} on its own ${entity} ${inside}`).toBe(200);
            }
          }
        }
      }
      expect(await snapshot(), `${id} changed data it must not reach`).toBe(before);
    },
  );

  // A list's filter that names a record (an organisation, an account) is a reference like any other.
  it.each(
    scoped
      .filter((r) => r.contract.method === "GET" && !SAMPLES[r.id])
      .flatMap((r) =>
        ((r.contract.scope as { refs?: readonly ScopedRef[] }).refs ?? [])
          .filter((ref) => ref.in === "query" && ref.field !== "id")
          .map((ref) => [`${r.id} ?${ref.field}=`, r, ref] as const),
      ),
  )("%s refuses a record outside the caller's scope and filters by one inside", async (_, { id, contract }, ref) => {
    for (const who of callers()) {
      const allowed = visible.get(who.key)?.[ref.entity] as Set<number>;
      const outside = [...(records.get(ref.entity) ?? [])].filter((r) => !allowed.has(r)).slice(0, 2);
      let permitted = true;
      for (const record of outside) {
        const response = await call(contract, who, { query: { [ref.field]: record } });
        expect([403, 404], `${id} as ${who.key} with ${ref.field}=${record}: ${response.body.slice(0, 200)}`).toContain(
          response.statusCode,
        );
        if (response.statusCode === 403) permitted = false;
        if (!permitted) break;
      }
      const inside = [...allowed][0];
      if (permitted && inside !== undefined) {
        const response = await call(contract, who, { query: { [ref.field]: inside } });
        const lacksPermission =
          response.statusCode === 403 && response.json().msg === "You do not have permission for this operation";
        if (!lacksPermission) expect(response.statusCode, `${id} as ${who.key} with its own ${ref.field}=${inside}`).toBe(200);
      }
    }
  });

  it("answers a bulk operation's outcome to those who see its launcher, listing only the devices they see", async () => {
    let answered = 0;
    for (const who of callers()) {
      for (const bulkId of visible.get(who.key)?.bulk ?? []) {
        const response = await call(API.deviceSettings.bulkOutcome, who, { query: { bulkId } });
        if (response.statusCode === 403) break;
        expect(response.statusCode, `bulk ${bulkId} as ${who.key}`).toBe(200);
        const deviceIds = response.json().data.records.map((r: { deviceId: number }) => r.deviceId);
        expect(deviceIds.filter((d: number) => !visible.get(who.key)?.device.has(d))).toEqual([]);
        if (who.type !== 0) answered++;
      }
    }
    // Distributors read their own and their dealer's operations; the dealer and the end user their own.
    expect(answered).toBeGreaterThanOrEqual(5);
  });
});
