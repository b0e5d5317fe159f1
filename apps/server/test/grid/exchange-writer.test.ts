import { GRID_DIRECTIONS } from "@ess/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../src/db/db.ts";
import { createExchangeWriter } from "../../src/modules/grid/exchange-writer.ts";
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
});
