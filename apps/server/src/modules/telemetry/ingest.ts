import { randomUUID } from "node:crypto";
import {
  checkFrame,
  decodeFrame,
  FRAME_FLAG_BUFFERED,
  FRAME_HEADER_BYTES,
  FrameError,
  keyQuantities,
  packZeroRuns,
  productOfFrame,
  rawWords,
  registerValues,
  registerWordsHash,
} from "@ess/contracts";
import {
  ALARM_WORD_REGISTERS,
  DEVICE_CLOCK_AHEAD_MAX_MS,
  FIRMWARE_VERSION_REGISTERS,
  firmwareVersionsOf,
  IDENTITY_REGISTERS,
  identityOfReading,
} from "@ess/domain";
import type { Db } from "../../db/db.ts";
import type { Metrics } from "../../observability/metrics.ts";
import type { DeviceDirectory, DeviceRef } from "./device-directory.ts";
import type { EnergyRollup } from "./energy-rollup.ts";
import { utcDay } from "./local-day.ts";
import type { Log } from "./log.ts";
import { createThrottledLog } from "./log.ts";
import type { PartitionKeeper } from "./partitions.ts";
import { createReportedKeeper } from "./reported-keeper.ts";
import { newestPerDevice, RepeatedReadingError, type StoredFrame, writeFrames } from "./telemetry-writer.ts";

const VERSION_REGISTERS = {
  single: Object.values(FIRMWARE_VERSION_REGISTERS.single).filter((r) => r !== null),
  three: Object.values(FIRMWARE_VERSION_REGISTERS.three).filter((r) => r !== null),
};

interface Pending {
  sn: string;
  payload: Buffer;
  receivedAt: number;
  resolve(): void;
  reject(error: Error): void;
}

export const IDENTITY_IDS = {
  single: Object.values(IDENTITY_REGISTERS.single).filter((r) => r !== null),
  three: Object.values(IDENTITY_REGISTERS.three).filter((r) => r !== null),
};

/** The firmware versions a reading reports, read from their raw words only. */
export function versionsOf(frame: ReturnType<typeof decodeFrame>, product: "single" | "three") {
  const words = rawWords(frame, VERSION_REGISTERS[product]);
  return firmwareVersionsOf(product, (register) => words.get(register));
}

/** The model, rated power and country code a reading reports, read from those few registers only. */
function decodeIdentity(frame: ReturnType<typeof decodeFrame>, product: "single" | "three") {
  const values = registerValues(frame, IDENTITY_IDS[product]);
  return identityOfReading(product, (register) => values.get(register));
}

export class IngestStoppedError extends Error {}

export interface IngestListener {
  /** Devices heard from in a batch (valid frames or not). */
  seen?(devices: DeviceRef[]): void;
  /** Frames committed (not counting duplicates' effects), after the commit; `batchId` names the batch's notes. */
  committed?(frames: readonly StoredFrame[], committedAt: number, batchId: string): void;
}

/**
 * Telemetry ingest: frames queue up and are written in batches (at most `maxBatch`, at least every
 * `flushMs`), one transaction per batch, `concurrency` batches at a time. `submit` resolves when its frame is durable — or when it
 * was refused for good (undecodable, unknown device, impossible time), which is counted and
 * logged — so the caller acknowledges the MQTT message only then. A failing database is retried
 * with a growing pause; the frames wait (unacknowledged) meanwhile.
 */
export function createTelemetryIngest(deps: {
  db: Db;
  directory: DeviceDirectory;
  partitions: PartitionKeeper;
  /** Takes each committed batch into the daily energy. */
  rollup: EnergyRollup;
  metrics: Metrics;
  log: Log;
  listener?: IngestListener;
  maxBatch?: number;
  flushMs?: number;
  /** Batches written at the same time (each in its own transaction); ESS_INGEST_WRITERS, else 2. */
  concurrency?: number;
}) {
  const maxBatch = deps.maxBatch ?? 2000;
  const flushMs = deps.flushMs ?? 50;
  const throttled = createThrottledLog(deps.log, 60_000);
  const queue: Pending[] = [];
  const concurrency = deps.concurrency ?? 2;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const reported = createReportedKeeper();

  const refuse = (p: Pending, outcome: string, detail: Record<string, unknown>) => {
    deps.metrics.ingestFrames.inc({ outcome });
    throttled.warn(`${p.sn}:${outcome}`, { sn: p.sn, outcome, ...detail }, "telemetry frame refused");
    p.resolve();
  };

  async function processBatch(batch: Pending[]): Promise<void> {
    const devices = await deps.directory.resolve(batch.map((p) => p.sn));
    const accepted: StoredFrame[] = [];
    const acceptedFrom: Pending[] = [];
    const heard = new Map<number, DeviceRef>();
    const now = Date.now();
    for (const p of batch) {
      const device = devices.get(p.sn);
      if (!device) {
        refuse(p, "unknown_device", {});
        continue;
      }
      heard.set(device.id, device);
      try {
        const frame = decodeFrame(p.payload);
        if (frame.header.kind !== "telemetry") throw new FrameError(`a ${frame.header.kind} frame on the telemetry topic`);
        const { ts } = frame.header;
        if (ts > now + DEVICE_CLOCK_AHEAD_MAX_MS || !deps.partitions.inRetention(ts, now)) {
          refuse(p, "bad_time", { ts });
          continue;
        }
        const product = productOfFrame(frame);
        const check = checkFrame(frame);
        if (check.invalid.length > 0) {
          deps.metrics.ingestInvalidValues.inc(check.invalid.length);
          throttled.warn(`${p.sn}:invalid`, { sn: p.sn, registers: check.invalid.slice(0, 20) }, "values outside their range");
        }
        if (check.unknown > 0) {
          deps.metrics.ingestUnknownValues.inc(check.unknown);
          throttled.warn(
            `${p.sn}:unknown`,
            { sn: p.sn, words: check.unknown },
            "values at addresses the catalogue does not define",
          );
        }
        accepted.push({
          device,
          ts,
          seq: frame.header.seq,
          receivedAt: p.receivedAt,
          kq: keyQuantities(frame, product),
          words: rawWords(frame, ALARM_WORD_REGISTERS[product]),
          buffered: (frame.header.flags & FRAME_FLAG_BUFFERED) !== 0,
          blocks: packZeroRuns(p.payload.subarray(FRAME_HEADER_BYTES)),
          invalid: check.invalid.length > 0 ? check.invalid : null,
          versions: versionsOf(frame, product),
          identity: reported.identityOf(device.id, registerWordsHash(frame, IDENTITY_IDS[product]), () =>
            decodeIdentity(frame, product),
          ),
        });
        acceptedFrom.push(p);
      } catch (error) {
        if (!(error instanceof FrameError)) throw error;
        refuse(p, "undecodable", { reason: error.message });
      }
    }
    deps.listener?.seen?.([...heard.values()]);
    if (accepted.length === 0) return;
    await deps.partitions.ensure(new Set(accepted.map((f) => utcDay(f.ts))));
    const started = performance.now();
    // What the devices say of themselves, from each one's newest reading that was not sent late.
    const reportedRows = reported.changed(
      newestPerDevice(accepted.filter((f) => !f.buffered)).map((f) => ({
        deviceId: f.device.id,
        ts: f.ts,
        versions: f.versions ?? {},
        identity: f.identity ?? { model: null, ratedPower: null, countryCode: null },
      })),
    );
    const batchId = randomUUID();
    const write = (mayRepeat: boolean) =>
      deps.db.transaction(async (tx) => {
        const written = await writeFrames(tx, accepted, { batchId, mayRepeat });
        await reported.write(tx, reportedRows);
        return written;
      });
    const { duplicates } = await write(false).catch((error: unknown) => {
      if (error instanceof RepeatedReadingError) return write(true);
      throw error;
    });
    reported.remember(reportedRows);
    deps.rollup.add(batchId, accepted);
    deps.metrics.ingestBatchSeconds.observe((performance.now() - started) / 1000);
    deps.metrics.ingestFrames.inc({ outcome: "stored" }, accepted.length - duplicates);
    if (duplicates > 0) deps.metrics.ingestFrames.inc({ outcome: "duplicate" }, duplicates);
    for (const p of acceptedFrom) p.resolve();
    deps.listener?.committed?.(accepted, Date.now(), batchId);
  }

  /**
   * One writer: takes a batch off the queue, and more while full batches wait (or when stopping),
   * retrying a batch the database refused. A part batch waits for the next timer instead: taking
   * whatever arrived during the last commit made batches of a few dozen frames at 7,000 frames/s,
   * each paying a transaction and a commit of its own.
   */
  async function writer(): Promise<void> {
    for (let first = true; queue.length > 0 && (first || stopped || queue.length >= maxBatch); first = false) {
      const batch = queue.splice(0, maxBatch);
      deps.metrics.ingestQueue.set(queue.length);
      for (let attempt = 1; ; attempt++) {
        try {
          await processBatch(batch);
          break;
        } catch (error) {
          deps.metrics.ingestFailures.inc();
          deps.log.error({ err: error, frames: batch.length, attempt }, "telemetry batch not stored; retrying");
          if (stopped) {
            // Never acknowledged: the broker or the device sends them again after the restart.
            for (const p of batch) p.reject(new IngestStoppedError("stopping"));
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, Math.min(10_000, 250 * 2 ** Math.min(attempt, 6))));
        }
      }
    }
  }

  // Several writers: some prepare and copy a batch while others wait for their commit.
  const writers = new Set<Promise<void>>();
  const flush = () => {
    timer = null;
    while (writers.size < concurrency && queue.length > 0) {
      const w: Promise<void> = writer().finally(() => {
        writers.delete(w);
        if (queue.length > 0 && !stopped) schedule();
      });
      writers.add(w);
    }
  };
  const schedule = () => {
    if (writers.size >= concurrency) return;
    if (queue.length >= maxBatch) {
      if (timer) clearTimeout(timer);
      flush();
    } else if (!timer) timer = setTimeout(flush, flushMs);
  };

  return {
    /** Queues one telemetry payload of device `sn`; resolves once it is durable or refused for good. */
    submit(sn: string, payload: Buffer): Promise<void> {
      if (stopped) return Promise.reject(new IngestStoppedError("stopping"));
      return new Promise<void>((resolve, reject) => {
        queue.push({ sn, payload, receivedAt: Date.now(), resolve, reject });
        deps.metrics.ingestQueue.set(queue.length);
        schedule();
      });
    },
    /** Writes what is queued, then refuses new frames. */
    async stop(): Promise<void> {
      if (timer) clearTimeout(timer);
      timer = null;
      if (queue.length > 0) flush();
      stopped = true;
      while (writers.size > 0) await Promise.all([...writers]);
      for (const p of queue.splice(0)) p.reject(new IngestStoppedError("stopping"));
    },
    queued: () => queue.length,
  };
}

export type TelemetryIngest = ReturnType<typeof createTelemetryIngest>;
