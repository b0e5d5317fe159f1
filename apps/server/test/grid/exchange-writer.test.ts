import { GRID_DIRECTIONS } from "@ess/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../src/db/db.ts";
import { createExchangeWriter } from "../../src/modules/grid/exchange-writer.ts";
import { createGridRepository } from "../../src/modules/grid/grid.repository.ts";
import { createTestDb } from "../helpers/test-db.ts";

/** Exchanged documents reach grid_exchange in batches, in the order they were exchanged, none lost. */

const exchange = (i: number) => ({
  tenantId: 1,
  at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
  exchange: {
    direction: i % 2 === 0 ? GRID_DIRECTIONS.received : GRID_DIRECTIONS.sent,
    method: i % 2 === 0 ? "GET" : "PUT",
    path: `/edev/${i}`,
    status: i % 3 === 0 ? null : 200,
    resource: i % 5 === 0 ? null : "EndDevice",
    body: `<EndDevice n="${i}"/>`,
  },
});

describe("grid exchange writer", () => {
  let db: Db;
  const stored = async () =>
    (
      await db.query<{ path: string; method: string; status: number | null; resource: string | null; body: string; at: Date }>(
        "SELECT path, method, status, resource, body, at FROM grid_exchange ORDER BY id",
      )
    ).rows;

  beforeAll(async () => {
    db = await createTestDb();
    await db.query("INSERT INTO tenant (id, name) VALUES (1, 'Default') ON CONFLICT (id) DO NOTHING");
  });
  afterAll(async () => db.close());

  it("stores every exchange with its fields, in order, after a short wait", async () => {
    await db.query("DELETE FROM grid_exchange");
    const writer = createExchangeWriter(db, { delayMs: 10, onError: (error) => expect.fail(String(error)) });
    for (let i = 0; i < 7; i++) writer.add(exchange(i));
    expect(await stored()).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const rows = await stored();
    expect(rows.map((r) => r.path)).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => `/edev/${i}`));
    expect(rows[3]).toMatchObject({ method: "PUT", status: null, resource: "EndDevice", body: '<EndDevice n="3"/>' });
    expect(rows[5]?.resource).toBeNull();
    expect(rows[6]?.at.toISOString()).toBe("2026-01-01T00:00:06.000Z");
  });

  it("writes a full batch at once and what waits on flush, nothing twice", async () => {
    await db.query("DELETE FROM grid_exchange");
    const writer = createExchangeWriter(db, { delayMs: 60_000, maxBatch: 4, onError: (error) => expect.fail(String(error)) });
    for (let i = 0; i < 6; i++) writer.add(exchange(i));
    // Four reached the batch size and are written without waiting the minute; two wait.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await stored()).toHaveLength(4);
    await writer.flush();
    expect((await stored()).map((r) => r.path)).toEqual([0, 1, 2, 3, 4, 5].map((i) => `/edev/${i}`));
    await writer.flush();
    expect(await stored()).toHaveLength(6);
  });

  it("counts a read answered as the last read of its path on that read's row, and stores changes and writes anew", async () => {
    await db.query("DELETE FROM grid_exchange");
    const writer = createExchangeWriter(db, { delayMs: 60_000, onError: (error) => expect.fail(String(error)) });
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 1, s));
    // The aggregator's own reads (no site), as the grid client makes them for EndDeviceList.
    const read = (s: number, body: string, path = "/derp/1/derc", status = 200) => ({
      tenantId: 1,
      at: at(s),
      exchange: { direction: GRID_DIRECTIONS.received, method: "GET", path, status, resource: "DERControlList", body },
    });
    const put = (s: number) => ({
      tenantId: 1,
      at: at(s),
      exchange: {
        direction: GRID_DIRECTIONS.sent,
        method: "PUT",
        path: "/edev/7/ders",
        status: 204,
        resource: "DERStatus",
        body: "<DERStatus/>",
      },
    });
    // Three reads of one list, the first two in one batch; the same answer at another path.
    writer.add(read(0, "<A/>"));
    writer.add(read(1, "<A/>"));
    writer.add(read(2, "<A/>", "/derp/2/derc"));
    await writer.flush();
    writer.add(read(3, "<A/>"));
    writer.add(put(4));
    writer.add(put(5));
    await writer.flush();
    // The list changes, then changes back: each change is a document of its own.
    writer.add(read(6, "<B/>"));
    writer.add(read(7, "<B/>"));
    writer.add(read(8, "<A/>"));
    await writer.flush();
    // An outage between two equal answers: the refusals, then the answer again, each a row.
    writer.add(read(9, "<Error/>", "/derp/1/derc", 500));
    writer.add(read(10, "<Error/>", "/derp/1/derc", 500));
    writer.add(read(11, "<A/>"));
    await writer.flush();
    const rows = (
      await db.query<{ path: string; method: string; body: string; reads: number; at: Date; last_at: Date | null }>(
        "SELECT path, method, body, reads, at, last_at FROM grid_exchange ORDER BY id",
      )
    ).rows.map((r) => [r.path, r.method, r.body, r.reads, r.at.getUTCSeconds(), r.last_at?.getUTCSeconds() ?? null]);
    expect(rows).toEqual([
      ["/derp/1/derc", "GET", "<A/>", 3, 0, 3],
      ["/derp/2/derc", "GET", "<A/>", 1, 2, null],
      ["/edev/7/ders", "PUT", "<DERStatus/>", 1, 4, null],
      ["/edev/7/ders", "PUT", "<DERStatus/>", 1, 5, null],
      ["/derp/1/derc", "GET", "<B/>", 2, 6, 7],
      ["/derp/1/derc", "GET", "<A/>", 1, 8, null],
      ["/derp/1/derc", "GET", "<Error/>", 2, 9, 10],
      ["/derp/1/derc", "GET", "<A/>", 1, 11, null],
    ]);
  });

  it("keeps past the retention a document still being read, and drops one last read before it", async () => {
    await db.query("DELETE FROM grid_exchange");
    await db.query(
      `INSERT INTO grid_exchange (tenant_id, direction, method, path, body, at, reads, last_at) VALUES
         (1, 1, 'GET', '/still-read', '<A/>', '2026-01-01T00:00:00Z', 90, '2026-03-01T00:00:00Z'),
         (1, 1, 'GET', '/read-once', '<B/>', '2026-01-01T00:00:00Z', 1, NULL),
         (1, 1, 'GET', '/read-until-january', '<C/>', '2026-01-01T00:00:00Z', 5, '2026-01-20T00:00:00Z')`,
    );
    await createGridRepository(db).pruneExchanges(new Date("2026-02-01T00:00:00Z"));
    expect((await db.query<{ path: string }>("SELECT path FROM grid_exchange")).rows.map((r) => r.path)).toEqual(["/still-read"]);
  });
});
