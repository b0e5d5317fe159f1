import { GRID_RESPONSE_OUTCOMES } from "@ess/domain";
import { encodeSep, RESPONSE_STATUS } from "@ess/sep2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller } from "../helpers/api-caller.ts";
import { buildWorld, type World } from "../helpers/channel-world.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { insertExchange, insertSite } from "./grid-seed.ts";

/**
 * The response trail of the IEEE device centre: the responses the console posted for a site's
 * controls, read back from the stored documents — each with its control's program, its status,
 * whether the utility took it — behind the centre's permission and the devices' data scope.
 */
let t: TestApp;
let world: World;
const as = (who: string) => {
  let token = "";
  const call = apiCaller(
    () => t.app,
    () => token,
  );
  return async <T>(url: string) => {
    token = await world.token(who);
    return call<T>("GET", url);
  };
};
type Trail = { records: Record<string, unknown>[]; total: number; size: number };

/** A response as the client posts it (site-controls.ts), answered `http` by the utility (null: no answer). */
const posted = (site: number, lfdi: string, mrid: string, status: number, http: number | null, at: string) =>
  insertExchange(t.db, site, {
    direction: 2,
    method: "POST",
    path: "/rsp/1",
    status: http as number,
    resource: "DERControlResponse",
    body: encodeSep("DERControlResponse", {
      createdDateTime: Math.floor(Date.parse(at) / 1000),
      endDeviceLFDI: lfdi,
      status,
      subject: mrid,
    } as never),
    at,
  });

beforeAll(async () => {
  t = await createTestApp();
  world = await buildWorld(t.app, t.db);
  const device = world.devices.get("dev-1a")?.id as number;
  const { id: site, lfdi } = await insertSite(t.db, device);
  await t.db.query(
    `INSERT INTO grid_command (tenant_id, site_id, mrid, program_mrid, primacy, kind, mode, start_at, duration_s, response_status)
     VALUES (1, $1, 'EV0001', 'PROGEXP1', 1, 1, 1, '2026-11-05T10:00:00Z', 600, 2)`,
    [site],
  );
  await posted(site, lfdi, "EV0001", RESPONSE_STATUS.received, 201, "2026-11-05T09:59:00Z");
  // "Started" was not taken at first (the utility was away), then accepted on the next try.
  await posted(site, lfdi, "EV0001", RESPONSE_STATUS.started, null, "2026-11-05T10:00:01Z");
  await posted(site, lfdi, "EV0001", RESPONSE_STATUS.started, 201, "2026-11-05T10:00:31Z");
  // "Completed" not taken yet: the console keeps trying.
  await posted(site, lfdi, "EV0001", RESPONSE_STATUS.completed, 503, "2026-11-05T10:10:01Z");
  // Other documents the console sent are not responses.
  await insertExchange(t.db, site, {
    direction: 2,
    method: "POST",
    path: "/mup/1",
    status: 201,
    resource: "MirrorMeterReading",
    body: "<MirrorMeterReading/>",
    at: "2026-11-05T10:05:00Z",
  });
}, 120_000);
afterAll(() => t.close());

describe("the response trail of a device's site", () => {
  it("lists each posted response newest first, with its control, program, status and whether the utility took it", async () => {
    const answer = await as("admin")<Trail>("/admin/ieee/response/page?sn=dev-1a&size=20");
    expect(answer.status).toBe(200);
    expect(answer.body.data.total).toBe(4);
    expect(answer.body.data.records.map((r) => [r.status, r.httpStatus, r.outcome])).toEqual([
      [RESPONSE_STATUS.completed, 503, GRID_RESPONSE_OUTCOMES.retrying],
      [RESPONSE_STATUS.started, 201, GRID_RESPONSE_OUTCOMES.accepted],
      [RESPONSE_STATUS.started, null, GRID_RESPONSE_OUTCOMES.resent],
      [RESPONSE_STATUS.received, 201, GRID_RESPONSE_OUTCOMES.accepted],
    ]);
    expect(answer.body.data.records[3]).toMatchObject({
      mrid: "EV0001",
      programMrid: "PROGEXP1",
      time: "2026-11-05T09:59:00.000Z",
    });
    const oldestFirst = await as("admin")<Trail>("/admin/ieee/response/page?sn=dev-1a&sort=time&order=asc&size=1");
    expect(oldestFirst.body.data.records.map((r) => r.status)).toEqual([RESPONSE_STATUS.received]);
  });

  it("is empty for a device without a site, and bounded in page size", async () => {
    const none = await as("admin")<Trail>("/admin/ieee/response/page?sn=dev-1b");
    expect(none.status).toBe(200);
    expect(none.body.data.total).toBe(0);
    expect((await as("admin")("/admin/ieee/response/page?sn=dev-1a&size=100000")).status).toBe(400);
    expect((await as("admin")("/admin/ieee/response/page")).status).toBe(400);
  });

  it("is refused to a dealer outside the device's subtree and to a user without the centre's permission", async () => {
    expect((await as("acc-D1a")<Trail>("/admin/ieee/response/page?sn=dev-1a")).status).toBe(200);
    expect((await as("acc-D2a")("/admin/ieee/response/page?sn=dev-1a")).status).toBe(404);
    expect((await as("u1a")("/admin/ieee/response/page?sn=dev-1a")).status).toBe(403);
  });
});
