import { KEY_QUANTITIES } from "@ess/domain";
import type { Db } from "../../db/db.ts";
import {
  addReadings,
  type DailyGroup,
  ENERGY_KQ_COLUMNS,
  type EnergyReading,
  mergeGroup,
  writeDailyGroups,
} from "./daily-energy.ts";
import type { Log } from "./log.ts";

const KQ_COLUMNS: readonly string[] = KEY_QUANTITIES.map((k) => k.column);
/** Device-days merged per statement and transaction. */
const FLUSH_SLICE = 5000;

/**
 * Daily energy from many ingest batches at once. Merging each batch into device_energy_daily
 * rewrote a row per device per batch — the largest statement of a batch. Here a batch's readings
 * are folded into one first/last pair per device and day in memory and written every `flushMs`:
 * a device reporting every 10 s is merged once per flush instead of once per frame.
 *
 * Nothing acknowledged is lost: each batch notes its readings in telemetry_rollup_pending in the
 * transaction that stores them (telemetry-writer.ts); a flush deletes the notes of exactly the
 * batches it merged, in its own transaction. Notes left by a stopped or killed server are merged
 * by `recover`, from the history. A merge is idempotent (first/last, never a sum), so a
 * batch merged twice — by a flush and by a recovery — counts once.
 */
export function createEnergyRollup(deps: { db: Db; log: Log; flushMs: number }) {
  let groups = new Map<string, DailyGroup>();
  let batches: string[] = [];
  let timer: NodeJS.Timeout | null = null;

  async function flushOnce(paced: boolean): Promise<void> {
    if (batches.length === 0 && groups.size === 0) return;
    const taken = { groups, batches };
    groups = new Map();
    batches = [];
    try {
      // In slices, each its own transaction, so that ingest's batches are not held up behind one
      // statement over a whole fleet; the notes go with the last slice. A slice merged before a
      // failure is merged again later, which changes nothing. On the timer each slice is followed
      // by a pause as long as it took, so that a whole fleet's merge takes at most half of the
      // database's time meanwhile: merged at once, 100,000 device-days held ingest up for seconds.
      const all = [...taken.groups.values()];
      for (let from = 0; from < all.length || from === 0; from += FLUSH_SLICE) {
        const last = from + FLUSH_SLICE >= all.length;
        const began = performance.now();
        await deps.db.transaction(async (tx) => {
          await writeDailyGroups(tx, all.slice(from, from + FLUSH_SLICE));
          if (last) await tx.query("DELETE FROM telemetry_rollup_pending WHERE id = ANY($1::uuid[])", [taken.batches]);
        });
        if (paced && !last) await new Promise((resolve) => setTimeout(resolve, performance.now() - began));
      }
    } catch (error) {
      // Put them back (merging is order-free) for the next flush; the notes still cover them.
      for (const g of taken.groups.values()) mergeGroup(groups, g);
      batches.push(...taken.batches);
      throw error;
    }
  }

  /** One flush at a time; a flush asked for while one runs follows it. */
  let chain: Promise<void> = Promise.resolve();
  function flush(paced = false): Promise<void> {
    const next = chain.then(() => flushOnce(paced));
    chain = next.catch(() => {});
    return next;
  }

  /**
   * Merges the batches noted in telemetry_rollup_pending, one note at a time, from the history:
   * all of them at a start, and, with `olderThanMs`, those no process flushed within that time —
   * a process that was killed leaves its notes to the one process that runs the `energy-recovery`
   * lease (cluster/console-jobs.ts). A note a live process still holds may be merged here as
   * well: its flush merges the same first/last again, which changes nothing.
   */
  async function recover(options: { olderThanMs?: number } = {}): Promise<number> {
    const { rows: notes } = await deps.db.query<{ id: string }>(
      `SELECT id FROM telemetry_rollup_pending
        WHERE $1::float8 IS NULL OR created_at < now() - make_interval(secs => $1::float8 / 1000)
        ORDER BY created_at`,
      [options.olderThanMs ?? null],
    );
    for (const note of notes) {
      await deps.db.transaction(async (tx) => {
        const { rows } = await tx.query<Record<string, number | string | null>>(
          `SELECT h.device_id, (extract(epoch FROM h.ts) * 1000)::float8 AS ts_ms, coalesce(d.time_zone, 'UTC') AS time_zone,
                  ${ENERGY_KQ_COLUMNS.map((c) => `h.${c}`).join(", ")}
             FROM telemetry_rollup_pending p
             CROSS JOIN LATERAL unnest(p.device_ids, p.ts_ms) AS x(device_id, ts_ms)
             JOIN telemetry_history h ON h.device_id = x.device_id AND h.ts = to_timestamp(x.ts_ms / 1000.0)
             JOIN device d ON d.id = h.device_id
            WHERE p.id = $1`,
          [note.id],
        );
        const readings: EnergyReading[] = rows.map((r) => ({
          device: { id: Number(r.device_id), timeZone: String(r.time_zone) },
          ts: Number(r.ts_ms),
          kq: KQ_COLUMNS.map((c) => (ENERGY_KQ_COLUMNS.includes(c) && r[c] != null ? Number(r[c]) : null)),
        }));
        const recovered = new Map<string, DailyGroup>();
        addReadings(recovered, readings);
        await writeDailyGroups(tx, recovered.values());
        await tx.query("DELETE FROM telemetry_rollup_pending WHERE id = $1", [note.id]);
      });
    }
    if (notes.length > 0) deps.log.info({ batches: notes.length }, "daily energy of batches stored before a stop merged");
    return notes.length;
  }

  const tick = () => {
    timer = null;
    flush(true)
      .catch((error: unknown) => deps.log.error({ err: error }, "daily energy merge failed; retrying"))
      .finally(() => {
        if (started) timer = setTimeout(tick, deps.flushMs);
      });
  };
  let started = false;

  return {
    /** Folds a committed batch (noted as `batchId`) into the next flush. */
    add(batchId: string, readings: Iterable<EnergyReading>): void {
      addReadings(groups, readings);
      batches.push(batchId);
    },
    flush,
    recover,
    start(): void {
      started = true;
      timer ??= setTimeout(tick, deps.flushMs);
    },
    /** Writes what is held; notes of a failed last flush stay for the next start. */
    async stop(): Promise<void> {
      started = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await flush().catch((error: unknown) =>
        deps.log.error({ err: error }, "daily energy merge at stop failed; merged on next start"),
      );
    },
    /** Device-days held for the next flush. */
    held: () => groups.size,
  };
}

export type EnergyRollup = ReturnType<typeof createEnergyRollup>;
