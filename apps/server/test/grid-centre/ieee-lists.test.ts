import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCaller } from "../helpers/api-caller.ts";
import { buildWorld, type World } from "../helpers/channel-world.ts";
import { visibleTo } from "../helpers/scope-oracle.ts";
import { createTestApp, type TestApp } from "../helpers/test-app.ts";
import { insertCommands, insertExchange, insertSite } from "./grid-seed.ts";

/**
 * The IEEE device centre over rows the aggregator client would write: the device list with its
 * mode counts and filters, each device's received and sent documents, command records, their
 * workbooks, and the devices' data scope throughout.
 */
let t: TestApp;
let world: World;
const sites = new Map<string, number>();
const as = (who: string) => {
  let token = "";
  const call = apiCaller(
    () => t.app,
    () => token,
  );
  return async <T>(url: string, language = "en-US") => {
    token = await world.token(who);
    return call<T>("GET", url, undefined, { language });
  };
};
const download = async (who: string, url: string, language: string) => {
  const response = await t.app.inject({
    method: "GET",
    url,
    headers: { authorization: `Bearer ${await world.token(who)}`, "accept-language": language },
  });
  expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  book.worksheets[0]?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
};
const ENDDEVICE_XML =
  '<EndDeviceList xmlns="urn:ieee:std:2030.5:ns" all="1" results="1"><EndDevice><lFDI>AB</lFDI></EndDevice></EndDeviceList>';

beforeAll(async () => {
  t = await createTestApp();
  world = await buildWorld(t.app, t.db);
  const dev = (key: string) => world.devices.get(key)?.id as number;
  await t.db.query("UPDATE device SET nmi = '4102000000', grid_company = 'Ausgrid', country_code = 3 WHERE id = $1", [
    dev("dev-1a"),
  ]);
  await t.db.query("UPDATE device SET nmi = '6305000000', grid_company = 'AusNet Services' WHERE id = $1", [dev("dev-2a")]);
  for (const [key, state] of [
    ["dev-1a", 1],
    ["dev-1b", 0],
    ["dev-2a", 2],
  ] as const)
    sites.set(key, (await insertSite(t.db, dev(key), { registeredState: state, lastCommandAt: "2026-11-02T00:00:00Z" })).id);
  const site = sites.get("dev-1a") as number;
  await insertCommands(t.db, site, [0, 1, 1, 2, 3, 3, 3]);
  // Received, not yet in force: listed, not counted.
  await insertCommands(t.db, sites.get("dev-1b") as number, [0, 3], false);
  await insertCommands(t.db, sites.get("dev-2a") as number, [2]);
  await insertExchange(t.db, site, {
    direction: 1,
    method: "GET",
    path: "/edev",
    status: 200,
    resource: "EndDeviceList",
    body: ENDDEVICE_XML,
    at: "2026-11-01T10:00:00Z",
    // Read unchanged every minute for two days: one row.
    reads: 2880,
    lastAt: "2026-11-03T09:59:00Z",
  });
  await insertExchange(t.db, site, {
    direction: 1,
    method: "GET",
    path: "/derp/1/derc",
    status: 200,
    resource: "DERControlList",
    body: "<DERControlList/>",
    at: "2026-11-03T10:00:00Z",
  });
  await insertExchange(t.db, site, {
    direction: 2,
    method: "POST",
    path: "/rsp",
    status: 201,
    resource: "DERControlResponse",
    body: "<DERControlResponse/>",
    at: "2026-11-03T11:00:00Z",
  });
}, 120_000);
afterAll(() => t.close());

type Page<R> = { records: R[]; total: number };
type Site = { id: number; sn: string; nmi: string; lfdi: string; gridCompany: string; registeredState: number } & Record<
  string,
  unknown
>;

describe("the IEEE device list", () => {
  it("shows each site with its device's NMI and grid company, its LFDI, state and the counts of controls applied by mode", async () => {
    const answer = await as("admin")<Page<Site>>("/admin/ieee/page?size=50");
    expect(answer.status).toBe(200);
    expect(answer.body.data.records.map((r) => r.sn).sort()).toEqual(["dev-1a", "dev-1b", "dev-2a"]);
    const site = answer.body.data.records.find((r) => r.sn === "dev-1a");
    expect(site).toMatchObject({
      nmi: "4102000000",
      gridCompany: "Ausgrid",
      registeredState: 1,
      lastCommandTime: "2026-11-02T00:00:00.000Z",
      regularCount: 1,
      sellCount: 2,
      emergencyCount: 1,
      purePvCount: 3,
      onlineStatus: 0,
    });
    expect(site?.lfdi).toMatch(/^[0-9A-F]{40}$/);
    expect(answer.body.data.records.find((r) => r.sn === "dev-1b")).toMatchObject({ regularCount: 0, purePvCount: 0 });
  });

  it("shows the control in force at each site, with its source and until when, and none where nothing is", async () => {
    await t.db.query(
      `UPDATE grid_site SET active_control = $2, active_source = $3, active_since = '2026-11-03T04:00:00Z',
              active_until = '2026-11-03T04:30:00Z' WHERE id = $1`,
      [
        sites.get("dev-1a"),
        JSON.stringify({ opModExpLimW: { value: 2, multiplier: 3 }, opModImpLimW: { value: 5, multiplier: 3 } }),
        JSON.stringify({ kind: "event", mrid: "EV01", programMrid: "PROG0001", primacy: 1 }),
      ],
    );
    const records = (await as("admin")<Page<Site>>("/admin/ieee/page?size=50")).body.data.records;
    expect(records.find((r) => r.sn === "dev-1a")?.activeControl).toEqual({
      control: { opModExpLimW: { value: 2, multiplier: 3 }, opModImpLimW: { value: 5, multiplier: 3 } },
      kind: "event",
      mrid: "EV01",
      programMrid: "PROG0001",
      primacy: 1,
      since: "2026-11-03T04:00:00.000Z",
      until: "2026-11-03T04:30:00.000Z",
    });
    expect(records.find((r) => r.sn === "dev-1b")?.activeControl).toBeNull();
  });

  it("filters by serial number, NMI, registration state and grid company", async () => {
    const sns = async (query: string) =>
      (await as("admin")<Page<Site>>(`/admin/ieee/page?${query}`)).body.data.records.map((r) => r.sn).sort();
    expect(await sns("sn=dev-1")).toEqual(["dev-1a", "dev-1b"]);
    expect(await sns("nmi=6305")).toEqual(["dev-2a"]);
    expect(await sns("registeredState=2")).toEqual(["dev-2a"]);
    expect(await sns("gridCompany=ausgrid")).toEqual(["dev-1a"]);
    expect((await as("admin")("/admin/ieee/page?registeredState=9")).status).toBe(400);
  });

  it("shows a dealer only the sites of its own subtree's devices, and refuses another's documents", async () => {
    const dealer = world.users.get("acc-D1a");
    if (!dealer) throw new Error("no dealer");
    const allowed = visibleTo(world, dealer).devices;
    const answer = await as("acc-D1a")<Page<Site>>("/admin/ieee/page?size=50");
    expect(answer.status).toBe(200);
    expect(answer.body.data.records.map((r) => r.sn)).toEqual(["dev-1a"]);
    expect(answer.body.data.records.every((r) => allowed.has(r.id))).toBe(true);
    expect(answer.body.data.total).toBe(1);
    expect((await as("acc-D1a")("/admin/ieee/receive/page?sn=dev-2a")).status).toBe(404);
    expect((await as("acc-D1a")("/excel/ieee/send/dev-2a")).status).toBe(404);
    const commands = await as("acc-D1a")<Page<{ sn: string }>>("/admin/ieee/command/page?size=50");
    expect(new Set(commands.body.data.records.map((r) => r.sn))).toEqual(new Set(["dev-1a"]));
  });
});

describe("a device's documents and commands", () => {
  type Doc = {
    time: string;
    lastTime: string;
    reads: number;
    method: string;
    path: string;
    status: number;
    resource: string;
    xml: string;
  };

  it("lists what was received, newest first, searchable by resource type and time", async () => {
    const all = await as("admin")<Page<Doc>>("/admin/ieee/receive/page?sn=dev-1a");
    expect(all.body.data.records.map((r) => r.resource)).toEqual(["DERControlList", "EndDeviceList"]);
    expect(all.body.data.records[1]).toMatchObject({ method: "GET", path: "/edev", status: 200, xml: ENDDEVICE_XML });
    expect(all.body.data.records.map((r) => [r.reads, r.lastTime])).toEqual([
      [1, "2026-11-03T10:00:00.000Z"],
      [2880, "2026-11-03T09:59:00.000Z"],
    ]);
    const typed = await as("admin")<Page<Doc>>("/admin/ieee/receive/page?sn=dev-1a&resource=EndDevice");
    expect(typed.body.data.records.map((r) => r.path)).toEqual(["/edev"]);
    const timed = await as("admin")<Page<Doc>>(
      "/admin/ieee/receive/page?sn=dev-1a&from=2026-11-02T00:00:00Z&to=2026-11-04T00:00:00Z",
    );
    // The list read on the 1st is found by its reads until the 3rd.
    expect(timed.body.data.records.map((r) => r.path)).toEqual(["/derp/1/derc", "/edev"]);
    const later = await as("admin")<Page<Doc>>("/admin/ieee/receive/page?sn=dev-1a&from=2026-11-03T09:59:30Z");
    expect(later.body.data.records.map((r) => r.path)).toEqual(["/derp/1/derc"]);
    const before = await as("admin")<Page<Doc>>("/admin/ieee/receive/page?sn=dev-1a&to=2026-11-02T00:00:00Z");
    expect(before.body.data.records.map((r) => r.path)).toEqual(["/edev"]);
    const sent = await as("admin")<Page<Doc>>("/admin/ieee/send/page?sn=dev-1a");
    expect(sent.body.data.records.map((r) => [r.method, r.resource])).toEqual([["POST", "DERControlResponse"]]);
    expect((await as("admin")("/admin/ieee/receive/page")).status).toBe(400);
  });

  it("lists one device's command records, or all in scope", async () => {
    const mine = await as("admin")<Page<Record<string, unknown>>>("/admin/ieee/command/page?sn=dev-1a&size=50");
    expect(mine.body.data.total).toBe(7);
    expect(mine.body.data.records[0]).toMatchObject({
      sn: "dev-1a",
      programMrid: "PROG0001",
      primacy: 1,
      kind: 1,
      durationS: 1800,
      eventStatus: 1,
      responseStatus: 2,
    });
    expect((await as("admin")<Page<unknown>>("/admin/ieee/command/page?size=50")).body.data.total).toBe(10);
  });

  it("exports received and sent documents with the XML, in the caller's language", async () => {
    const received = await download("admin", "/excel/ieee/receive/dev-1a", "en-US");
    expect(received[0]).toEqual([
      "ID",
      "Time",
      "Last read",
      "Reads",
      "Method",
      "Path",
      "Status",
      "Resource type",
      "XML document",
    ]);
    expect(received.slice(1).map((r) => r[5])).toEqual(["/derp/1/derc", "/edev"]);
    expect(received[2]?.slice(1, 4)).toEqual(["2026-11-01T10:00:00.000Z", "2026-11-03T09:59:00.000Z", 2880]);
    expect(received[2]?.[8]).toBe(ENDDEVICE_XML);
    const sent = await download("admin", "/excel/ieee/send/dev-1a?resource=Response", "zh-CN");
    expect(sent[0]?.[8]).toBe("XML报文");
    expect(sent.slice(1).map((r) => r[4])).toEqual(["POST"]);
  });

  it("exports command records with kinds, modes and statuses named", async () => {
    const rows = await download("admin", "/excel/ieee/command?sn=dev-1a", "en-US");
    expect(rows[0]).toContain("Event status");
    expect(
      rows
        .slice(1)
        .map((r) => r[6])
        .sort(),
    ).toEqual(["Emergency", "Pure PV", "Pure PV", "Pure PV", "Regular", "Sell", "Sell"].sort());
    expect(rows[1]?.slice(5, 6)).toEqual(["Event control"]);
    expect(rows[1]?.[9]).toBe("Active");
    expect(rows[1]?.[10]).toBe("Event started");
    const zh = await download("admin", "/excel/ieee/command?sn=dev-2a", "zh-CN");
    expect(zh.slice(1).map((r) => r[6])).toEqual(["紧急"]);
  });
});
