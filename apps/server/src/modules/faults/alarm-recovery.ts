import { type AlarmEvent, frameFromStored, productOfFrame, rawWords, unpackZeroRuns } from "@ess/contracts";
import { ALARM_WORD_REGISTERS } from "@ess/domain";
import type { Queryable } from "../../db/db.ts";
import type { Metrics } from "../../observability/metrics.ts";
import { createThrottledLog, type Log } from "../telemetry/log.ts";
import type { DetectionUnit } from "./alarm-apply.ts";
import type { EventFacts, FrameFacts } from "./alarm-observations.ts";

/**
 * After this many recovery attempts that the database refused for what they hold (not for being
 * unavailable) a note or an event is given up, logged: nothing waits forever, and an outage,
 * however long, gives up nothing.
 */
export const RECOVERY_ATTEMPTS = 10;

/** Whether the database refused a statement for its content (data, constraint, statement) rather than for being unavailable. */
export const refusedForContent = (error: unknown) => /^(22|23|42)/.test(String((error as { code?: unknown }).code ?? ""));

/** Batch notes no detection step settled within `olderThanS` (a failure, a stop, another process gone). */
export async function leftNotes(db: Queryable, olderThanS: number, limit: number) {
  const { rows } = await db.query<{ id: string; attempts: number }>(
    `SELECT id, attempts FROM alarm_detection_pending WHERE created_at < now() - make_interval(secs => $1)
      ORDER BY created_at LIMIT $2`,
    [olderThanS, limit],
  );
  return rows;
}

/**
 * A batch note's readings, read back from the history: their alarm and status words, as received
 * when the batch was stored (the note's time; the reading's own arrival is not kept).
 */
export async function notedFrames(db: Queryable, noteId: string): Promise<FrameFacts[]> {
  const { rows } = await db.query<{
    device_id: number;
    tenant_id: number;
    phase_type: 1 | 2 | null;
    ts_ms: number;
    received_ms: number;
    blocks: Uint8Array;
  }>(
    `SELECT h.device_id, d.tenant_id, d.phase_type, round(extract(epoch FROM h.ts) * 1000)::float8 AS ts_ms,
            round(extract(epoch FROM p.created_at) * 1000)::float8 AS received_ms, h.blocks
       FROM alarm_detection_pending p
       CROSS JOIN LATERAL unnest(p.device_ids, p.ts_ms) WITH ORDINALITY AS x(device_id, ts_ms, n)
       JOIN telemetry_history h ON h.device_id = x.device_id AND h.ts = to_timestamp(x.ts_ms / 1000.0)
       JOIN device d ON d.id = h.device_id
      WHERE p.id = $1
      ORDER BY x.n`,
    [noteId],
  );
  return rows.map((r) => {
    const frame = frameFromStored(r.ts_ms, 0, unpackZeroRuns(r.blocks));
    return {
      device: { id: r.device_id, tenantId: r.tenant_id, phaseType: r.phase_type },
      ts: r.ts_ms,
      receivedAt: r.received_ms,
      words: rawWords(frame, ALARM_WORD_REGISTERS[productOfFrame(frame)]),
    };
  });
}

export async function countNoteAttempt(db: Queryable, noteId: string): Promise<void> {
  await db.query("UPDATE alarm_detection_pending SET attempts = attempts + 1 WHERE id = $1", [noteId]);
}

export async function dropNote(db: Queryable, noteId: string): Promise<void> {
  await db.query("DELETE FROM alarm_detection_pending WHERE id = $1", [noteId]);
}

/** Stored alarm events no detection step applied within `olderThanS`, oldest first. */
export async function leftEvents(
  db: Queryable,
  olderThanS: number,
  limit: number,
): Promise<(EventFacts & { attempts: number })[]> {
  const { rows } = await db.query<{
    device_id: number;
    tenant_id: number;
    phase_type: 1 | 2 | null;
    ts_ms: number;
    received_ms: number;
    register: string;
    bit: number;
    state: "occur" | "disappear";
    code: number | null;
    level: number | null;
    buffered: boolean;
    detect_attempts: number;
  }>(
    `SELECT e.device_id, d.tenant_id, d.phase_type, round(extract(epoch FROM e.ts) * 1000)::float8 AS ts_ms,
            round(extract(epoch FROM e.received_at) * 1000)::float8 AS received_ms, e.register, e.bit, e.state, e.code, e.level,
            e.buffered, e.detect_attempts
       FROM device_alarm_event e JOIN device d ON d.id = e.device_id
      WHERE NOT e.detected AND e.received_at < now() - make_interval(secs => $1)
      ORDER BY e.received_at LIMIT $2`,
    [olderThanS, limit],
  );
  return rows.map((r) => {
    const event: AlarmEvent = {
      v: 1,
      ts: r.ts_ms,
      key: r.register,
      bit: r.bit,
      state: r.state,
      ...(r.code !== null ? { code: r.code } : {}),
      ...(r.level !== null ? { level: r.level } : {}),
      ...(r.buffered ? { buffered: true } : {}),
    };
    return {
      device: { id: r.device_id, tenantId: r.tenant_id, phaseType: r.phase_type },
      event,
      receivedAt: r.received_ms,
      attempts: r.detect_attempts,
    };
  });
}

/** Counts a failed attempt on events; those past RECOVERY_ATTEMPTS count as applied (given up). Returns how many were given up. */
export async function countEventAttempts(db: Queryable, events: readonly EventFacts[]): Promise<number> {
  const { rows } = await db.query<{ given_up: boolean }>(
    `UPDATE device_alarm_event e SET detect_attempts = detect_attempts + 1, detected = detect_attempts + 1 >= $6
       FROM unnest($1::bigint[], $2::int8[], $3::text[], $4::int[], $5::text[]) AS x(device_id, ts_ms, register, bit, state)
      WHERE e.device_id = x.device_id AND e.ts = to_timestamp(x.ts_ms / 1000.0) AND e.register = x.register
        AND e.bit = x.bit AND e.state = x.state
      RETURNING e.detected AS given_up`,
    [
      events.map((e) => e.device.id),
      events.map((e) => e.event.ts),
      events.map((e) => e.event.key),
      events.map((e) => e.event.bit),
      events.map((e) => e.event.state),
      RECOVERY_ATTEMPTS,
    ],
  );
  return rows.filter((r) => r.given_up).length;
}

const throttledLogs = new WeakMap<Log, ReturnType<typeof createThrottledLog>>();

/**
 * Applies what no detection step settled within `afterS`: batch notes (their readings read back
 * from the history) and stored events. A note another process is applying is skipped (`apply`
 * with the note locks it); applying one twice changes nothing (alarm-rules.ts). An unavailable
 * database ends the pass, to be tried again; a refusal for content counts an attempt, and one
 * event refused does not hold the others back. Returns how many notes and events it applied.
 */
export async function recoveryPass(deps: {
  db: Queryable;
  log: Log;
  metrics?: Pick<Metrics, "alarmDetectionFailures">;
  afterS: number;
  maxEvents: number;
  apply: (unit: DetectionUnit, lockNote?: string) => Promise<void>;
}): Promise<number> {
  let throttled = throttledLogs.get(deps.log);
  if (!throttled) {
    throttled = createThrottledLog(deps.log, 30_000);
    throttledLogs.set(deps.log, throttled);
  }
  const unavailable = (error: unknown) => {
    deps.metrics?.alarmDetectionFailures.inc();
    if (refusedForContent(error)) return false;
    throttled.warn("recovery", { err: error }, "alarm recovery failed; tried again later");
    return true;
  };
  let applied = 0;
  for (const note of await leftNotes(deps.db, deps.afterS, 50)) {
    try {
      await deps.apply({ frames: await notedFrames(deps.db, note.id), events: [], notes: [note.id] }, note.id);
      applied++;
    } catch (error) {
      if (unavailable(error)) return applied;
      const last = note.attempts + 1 >= RECOVERY_ATTEMPTS;
      deps.log.error(
        { err: error, note: note.id, attempt: note.attempts + 1 },
        last ? "alarm detection of a batch given up" : "alarm recovery of a batch refused",
      );
      await (last ? dropNote(deps.db, note.id) : countNoteAttempt(deps.db, note.id)).catch(() => {});
    }
  }
  const events = await leftEvents(deps.db, deps.afterS, deps.maxEvents);
  if (events.length > 0) {
    try {
      await deps.apply({ frames: [], events, notes: [] });
      applied += events.length;
    } catch (error) {
      if (unavailable(error)) return applied;
      for (const e of events) {
        try {
          await deps.apply({ frames: [], events: [e], notes: [] });
          applied++;
        } catch (one) {
          const given = await countEventAttempts(deps.db, [e]).catch(() => 0);
          deps.log.error({ err: one, deviceId: e.device.id, givenUp: given > 0 }, "alarm recovery of an event refused");
        }
      }
    }
  }
  if (applied > 0) deps.log.info({ applied }, "alarm observations left by a failure or a stop applied");
  return applied;
}
