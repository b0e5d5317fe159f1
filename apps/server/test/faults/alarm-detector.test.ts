import { randomUUID } from "node:crypto";
import {
  decodeFrame,
  encodeFrame,
  FRAME_HEADER_BYTES,
  keyQuantities,
  packZeroRuns,
  productOfFrame,
  rawWords,
} from "@ess/contracts";
import { ALARM_WORD_REGISTERS } from "@ess/domain";
import { DeviceBrain } from "@ess/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../src/db/db.ts";
import { createTranslator } from "../../src/i18n/translator.ts";
import { createAlarmDetector } from "../../src/modules/faults/alarm-detector.ts";
import { createFaultCache } from "../../src/modules/faults/fault-cache.ts";
import { createPartitionKeeper } from "../../src/modules/telemetry/partitions.ts";
import { type StoredFrame, writeFrames } from "../../src/modules/telemetry/telemetry-writer.ts";
import { seedFaults } from "../../src/seed/faults.seed.ts";
import { registerDevice, uniqueSerial } from "../helpers/devices.ts";
import { plantFor } from "../helpers/sim.ts";
import { createTestDb, TEST_DRIVER } from "../helpers/test-db.ts";

const quiet = { info() {}, warn() {}, error() {} };

/** The detector on its own, fed as ingest feeds it: committed batches with their notes. */
describe(`alarm detection from stored readings (${TEST_DRIVER})`, () => {
  let db: Db;
  let translator: Awaited<ReturnType<typeof createTranslator>>;
  beforeAll(async () => {
    db = await createTestDb();
    await db.query("INSERT INTO tenant (id, name) VALUES (1, 'Default') ON CONFLICT (id) DO NOTHING");
    await db.transaction((tx) => seedFaults(tx, 1));
    translator = await createTranslator();
  });
  afterAll(() => db.close());

  /** A device whose readings are made by the simulator's brain, stored like ingest stores them. */
  async function device() {
    const d = await registerDevice(db, { sn: uniqueSerial("DET"), phaseType: 2 });
    const t0 = Date.now() - 600_000;
    const brain = new DeviceBrain(plantFor(d.sn, "three", "rome"), t0, { faultsPerDay: 0, warmUp: false });
    const ref = { id: d.id, sn: d.sn, tenantId: 1, timeZone: "Europe/Rome", phaseType: 2 as const };
    const frameAt = (at: number): StoredFrame => {
      brain.tick(at);
      const payload = encodeFrame(
        { kind: "telemetry", ts: at, seq: 0, requestId: 0, page: 0, flags: 0 },
        brain.telemetryBlocks(),
      );
      const frame = decodeFrame(payload);
      return {
        device: ref,
        ts: at,
        seq: 0,
        receivedAt: at,
        kq: keyQuantities(frame, productOfFrame(frame)),
        words: rawWords(frame, ALARM_WORD_REGISTERS.three),
        blocks: packZeroRuns(payload.subarray(FRAME_HEADER_BYTES)),
        invalid: null,
      };
    };
    /** Stores readings as one ingest batch; returns them with the batch's note id. */
    const store = async (frames: StoredFrame[]) => {
      const batchId = randomUUID();
      await createPartitionKeeper(db, { retentionDays: 30 }).ensure(
        new Set(frames.map((f) => new Date(f.ts).toISOString().slice(0, 10))),
      );
      await db.transaction((tx) => writeFrames(tx, frames, { batchId }));
      return { frames, batchId };
    };
    return { ...d, brain, t0, frameAt, store };
  }
  const detector = (recoveryAfterMs = 30_000) =>
    createAlarmDetector({
      db,
      catalogue: createFaultCache(db, translator),
      log: quiet,
      clearHoldMs: 0,
      recoveryAfterMs,
      onOpened: () => {},
    });
  const alarmsOf = async (deviceId: number) =>
    (
      await db.query<{ code: number; open: boolean }>(
        "SELECT code, cleared_at IS NULL AS open FROM device_alarm WHERE device_id = $1 ORDER BY id",
        [deviceId],
      )
    ).rows;
  const notes = async (id: string) => (await db.query("SELECT 1 FROM alarm_detection_pending WHERE id = $1", [id])).rowCount;

  it("opens and closes an alarm whose raising and clearing readings come in one step, and settles the batch's note", async () => {
    const d = await device();
    const det = detector();
    await det.start();
    d.brain.faults.inject(2001, d.t0 + 10_000);
    const raised = d.frameAt(d.t0 + 10_000);
    d.brain.faults.clear(2001, d.t0 + 20_000);
    const cleared = d.frameAt(d.t0 + 20_000);
    const batch = await d.store([raised, cleared]);
    det.frames(batch.frames, batch.batchId);
    await det.settled();
    expect(await alarmsOf(d.id)).toEqual([{ code: 2001, open: false }]);
    expect(await notes(batch.batchId)).toBe(0);
    await det.stop();
  });

  it("applies, from the history, readings stored while no detector took them (a stop), exactly once", async () => {
    const d = await device();
    d.brain.faults.inject(2102, d.t0 + 10_000);
    const batch = await d.store([d.frameAt(d.t0 + 10_000), d.frameAt(d.t0 + 20_000)]);
    // Nobody applied them: the note stays. A detector starting later takes it from the history.
    const det = detector(0);
    await det.start();
    await det.settled();
    expect(await alarmsOf(d.id)).toEqual([{ code: 2102, open: true }]);
    expect(await notes(batch.batchId)).toBe(0);
    const status = await db.query<{ status: number }>("SELECT status FROM device WHERE id = $1", [d.id]);
    expect(status.rows[0]?.status).toBe(3);
    // The same readings again (a redelivery, or a second pass): nothing changes.
    det.frames(batch.frames, null);
    await det.settled();
    expect(await det.recover()).toBe(0);
    expect(await alarmsOf(d.id)).toEqual([{ code: 2102, open: true }]);
    await det.stop();
  });
});
