import { KEY_QUANTITIES } from "@ess/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../src/db/db.ts";
import { addReadings, type DailyGroup } from "../../src/modules/telemetry/daily-energy.ts";
import { createEnergyRollup } from "../../src/modules/telemetry/energy-rollup.ts";
import { localDay, utcDay } from "../../src/modules/telemetry/local-day.ts";
import { createPartitionKeeper } from "../../src/modules/telemetry/partitions.ts";
import { type StoredFrame, writeFrames } from "../../src/modules/telemetry/telemetry-writer.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { createTestDb, TEST_DRIVER } from "../helpers/test-db.ts";

const ZONE = "Europe/Rome";
const HOUR = 3_600_000;
const quiet = { info() {}, warn() {}, error() {} } as never;
const column = (c: string) => KEY_QUANTITIES.findIndex((k) => k.column === c);

/** A reading whose daily PV counter is `pvToday` and total PV counter `pvTotal`. */
function reading(device: { id: number; sn: string }, ts: number, pvToday: number, pvTotal: number): StoredFrame {
  const kq: (number | null)[] = KEY_QUANTITIES.map(() => null);
  kq[column("pv_today")] = pvToday;
  kq[column("pv_total")] = pvTotal;
  return {
    device: { id: device.id, sn: device.sn, tenantId: 1, timeZone: ZONE, phaseType: 2 },
    ts,
    seq: ts / 1000,
    receivedAt: ts,
    kq,
    blocks: Buffer.alloc(0),
    invalid: null,
  };
}

describe(`daily energy merged from many batches (${TEST_DRIVER})`, () => {
  let db: Db;
  beforeAll(async () => {
    db = await createTestDb();
    await db.query("INSERT INTO tenant (id, name) VALUES (1, 'Default') ON CONFLICT (id) DO NOTHING");
  });
  afterAll(() => db.close());

  const dayOf = async (deviceId: number) =>
    (
      await db.query<{ day: string; pv: number }>(
        "SELECT day::text, pv FROM device_energy_day WHERE device_id = $1 ORDER BY day",
        [deviceId],
      )
    ).rows;
  const totalOf = async (deviceId: number) =>
    (await db.query<{ pv: number }>("SELECT pv FROM device_energy_total WHERE device_id = $1", [deviceId])).rows[0]?.pv;
  const notes = async () => (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM telemetry_rollup_pending")).rows[0]?.n;

  it("folds readings the same in any order: earliest total first, latest daily counter last", () => {
    const device = { id: 1, sn: "X" };
    const t0 = Date.parse("2026-06-01T08:00:00Z");
    const readings = [0, 1, 2, 3].map((k) => reading(device, t0 + k * HOUR, k * 1.5, 100 + k * 1.5));
    const forward = new Map<string, DailyGroup>();
    const backward = new Map<string, DailyGroup>();
    addReadings(forward, readings);
    addReadings(backward, [...readings].reverse());
    expect([...backward.values()]).toEqual([...forward.values()]);
    const day = [...forward.values()][0];
    expect(day).toMatchObject({ firstTs: t0, lastTs: t0 + 3 * HOUR });
    expect(day?.values.slice(0, 3)).toEqual([4.5, 100, 104.5]); // PV: daily counter last, total first and last
  });

  it("merges on start what a stopped server stored but had not merged, and a second merge counts nothing twice", async () => {
    const device = await registerDevice(db, { sn: uniqueSerial("ROLL"), phaseType: 2, timeZone: ZONE });
    const t0 = Date.parse("2026-06-01T20:00:00Z"); // 22:00 in Rome: the batch spans two local days
    const first = [0, 1].map((k) => reading(device, t0 + k * HOUR, 5 + k, 200 + k));
    const second = [2, 3].map((k) => reading(device, t0 + k * HOUR, k, 200 + k));
    await createPartitionKeeper(db, { retentionDays: 3650 }).ensure(new Set([...first, ...second].map((f) => utcDay(f.ts))));
    await db.transaction((tx) => writeFrames(tx, first, { batchId: "00000000-0000-4000-8000-000000000001" }));
    await db.transaction((tx) => writeFrames(tx, second, { batchId: "00000000-0000-4000-8000-000000000002" }));

    // The server that stored them held the first batch for its next merge, and was stopped.
    const stopped = createEnergyRollup({ db, log: quiet, flushMs: 60_000 });
    stopped.add("00000000-0000-4000-8000-000000000001", first);
    expect(await dayOf(device.id)).toEqual([]);
    expect(await notes()).toBe(2);

    const next = createEnergyRollup({ db, log: quiet, flushMs: 60_000 });
    expect(await next.recover()).toBe(2);
    const want = [
      { day: localDay(t0, ZONE), pv: 6 },
      { day: localDay(t0 + 2 * HOUR, ZONE), pv: 3 },
    ];
    expect(await dayOf(device.id)).toEqual(want);
    expect(await totalOf(device.id)).toBeCloseTo(9, 5);
    expect(await notes()).toBe(0);

    // The same readings merged again (the stopped server's flush after all) change nothing.
    await stopped.flush();
    expect(await dayOf(device.id)).toEqual(want);
    expect(await totalOf(device.id)).toBeCloseTo(9, 5);
  });

  it("keeps what a failed merge held for the next one", async () => {
    const device = await registerDevice(db, { sn: uniqueSerial("ROLL"), phaseType: 2, timeZone: ZONE });
    const t0 = Date.parse("2026-06-03T08:00:00Z");
    const frames = [reading(device, t0, 2, 50)];
    await createPartitionKeeper(db, { retentionDays: 3650 }).ensure([utcDay(t0)]);
    await db.transaction((tx) => writeFrames(tx, frames, { batchId: "00000000-0000-4000-8000-000000000003" }));
    let failing = true;
    const flaky: Db = {
      ...db,
      transaction: (fn) => (failing ? Promise.reject(new Error("connection lost")) : db.transaction(fn)),
    };
    const rollup = createEnergyRollup({ db: flaky, log: quiet, flushMs: 60_000 });
    rollup.add("00000000-0000-4000-8000-000000000003", frames);
    await expect(rollup.flush()).rejects.toThrow("connection lost");
    expect(rollup.held()).toBe(1);
    failing = false;
    await rollup.flush();
    expect(await dayOf(device.id)).toEqual([{ day: "2026-06-03", pv: 2 }]);
    expect(await notes()).toBe(0);
  });
});
