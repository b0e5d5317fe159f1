import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../src/db/db.ts";
import { createPresence } from "../../src/modules/telemetry/presence.ts";
import { createTestDb, TEST_DRIVER } from "../helpers/test-db.ts";

const silent = { info() {}, warn() {}, error() {} };
const BLOCKED = "still waiting";
const within = <T>(work: Promise<T>, ms: number) =>
  Promise.race([work, new Promise<typeof BLOCKED>((resolve) => setTimeout(() => resolve(BLOCKED), ms))]);

/*
 * Presence rewrites device rows while the ingest and the daily-energy merge insert rows that
 * reference them. Those inserts' foreign-key checks lock the device rows FOR KEY SHARE; presence
 * must not wait on them (nor they on presence), or the two deadlock under a large fleet's load.
 * Needs a second connection: PostgreSQL only.
 */
describe.skipIf(TEST_DRIVER !== "postgres")("presence and the ingest's foreign-key checks", () => {
  let db: Db;
  let ids: number[];
  beforeAll(async () => {
    db = await createTestDb();
    await db.query("INSERT INTO tenant (id, name) VALUES (1, 'Default') ON CONFLICT (id) DO NOTHING");
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO device (tenant_id, sn, phase_type, time_zone)
       SELECT 1, 'LOCK' || n, 2, 'Europe/Rome' FROM generate_series(1, 3) AS n RETURNING id`,
    );
    ids = rows.map((r) => Number(r.id));
  });
  afterAll(() => db.close());

  it("takes devices online and offline while another transaction holds its rows as a foreign-key check does", async () => {
    const presence = createPresence({ db, log: silent, offlineAfterS: 3600 });
    const outcome = await db.transaction(async (tx) => {
      await tx.query("SELECT id FROM device WHERE id = ANY($1::bigint[]) FOR KEY SHARE", [ids]);
      const online = await within(presence.setStatus(ids, 1, "message"), 10_000);
      const offline = await within(presence.setStatus([...ids].reverse(), 0, "will"), 10_000);
      return { online, offline };
    });
    expect(outcome.offline).not.toBe(BLOCKED);
    expect(outcome.online).not.toBe(BLOCKED);
    const { rows } = await db.query<{ online_status: number }>("SELECT online_status FROM device WHERE id = ANY($1::bigint[])", [
      ids,
    ]);
    expect(rows.map((r) => r.online_status)).toEqual([0, 0, 0]);
    const log = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM device_online_log WHERE device_id = ANY($1::bigint[])",
      [ids],
    );
    expect(log.rows[0]?.n).toBe(6);
  });
});
