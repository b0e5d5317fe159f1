import type { FaultLevel } from "@ess/domain";
import type { Db } from "../../db/db.ts";
import type { Metrics } from "../../observability/metrics.ts";
import { createThrottledLog, type Log } from "../telemetry/log.ts";
import { applyUnit, type DetectionUnit, type LevelOf, type OpenedAlarm, refreshDeviceStatus } from "./alarm-apply.ts";
import {
  type EventFacts,
  type FrameFacts,
  type Observation,
  observationOfEvent,
  observationsOfFrame,
} from "./alarm-observations.ts";
import { recoveryPass } from "./alarm-recovery.ts";
import type { FaultCatalogueCache } from "./fault-cache.ts";

export type { OpenedAlarm } from "./alarm-apply.ts";

/** Frames and events applied in one transaction at most (a storm's are applied together). */
const MAX_FRAMES = 4000;
const MAX_EVENTS = 500;
const HINT_REFRESH_MS = 5000;

/**
 * The alarm life cycle, driven by committed readings and stored alarm events, with the alarms'
 * state in the database (rules: alarm-rules.ts; steps: alarm-apply.ts). An alarm opens once per
 * device and code (a partial unique index makes it so across processes and restarts), closes when
 * its condition has stayed clear for `clearHoldMs` — of the device's time, and at the latest of
 * the console's — and counts a condition back within the hold as a flap. Device status 3 follows
 * open alarms of the error level.
 *
 * Nothing observed is dropped: a step the database refuses is tried again with a growing pause;
 * one still failing after `recoveryAfterMs` (a longer outage), or still waiting at a stop, is left
 * in the database — the batch's note and the event's `detected = false` — where the recovery pass
 * (at each process's start, and every `recoveryAfterMs` in the one process that holds the
 * `alarm-sweeps` lease) applies it from the history.
 *
 * Which devices have alarms open is also kept here as a hint (loaded at start, refreshed every 5 s
 * and after each step), only so that a batch of quiet readings costs no database work.
 */
export function createAlarmDetector(deps: {
  db: Db;
  catalogue: FaultCatalogueCache;
  log: Log;
  metrics?: Pick<Metrics, "alarmDetectionFailures">;
  clearHoldMs: number;
  recoveryAfterMs?: number;
  onOpened: (alarms: OpenedAlarm[]) => void;
}) {
  const recoveryAfterMs = deps.recoveryAfterMs ?? 30_000;
  const throttled = createThrottledLog(deps.log, 30_000);
  const queue: DetectionUnit[] = [];
  /** Notes of quiet batches, deleted together now and then (or with the next step). */
  let quietNotes: string[] = [];
  /** Devices believed to have an alarm open. */
  const hint = new Set<number>();
  let working: Promise<void> | null = null;
  let serial: Promise<unknown> = Promise.resolve();
  let failingSince: number | null = null;
  let stopped = false;
  let wake: (() => void) | null = null;
  const timers: NodeJS.Timeout[] = [];

  /** One database step of the detector at a time (its own steps, the sweep, recovery, upkeep). */
  function exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const next = serial.then(fn);
    serial = next.catch(() => {});
    return next;
  }

  async function levelsFor(unit: DetectionUnit): Promise<LevelOf> {
    const active: Observation[] = [
      ...unit.frames.flatMap((f) => observationsOfFrame(f)),
      ...unit.events.flatMap((e) => observationOfEvent(e) ?? []).filter((o) => o.active),
    ];
    const levels = new Map<string, FaultLevel>();
    for (const o of active) {
      const key = `${o.tenantId}:${o.code}:${o.systemType}`;
      if (levels.has(key)) continue;
      const known = await deps.catalogue.fault(o.tenantId, o.code, o.systemType);
      if (known) levels.set(key, known.level);
    }
    return (o) =>
      levels.get(`${o.tenantId}:${o.code}:${o.systemType}`) ??
      ((o.level && o.level >= 1 && o.level <= 3 ? o.level : 2) as FaultLevel);
  }

  /** Applies a unit in one transaction; with `lockNote`, only if no other process holds that note. */
  async function run(unit: DetectionUnit, lockNote?: string): Promise<void> {
    // Levels before the transaction: inside it only `tx` may be used (one connection on PGlite).
    const levelOf = await levelsFor(unit);
    const quiet = quietNotes;
    quietNotes = [];
    try {
      const outcome = await deps.db.transaction(async (tx) => {
        if (lockNote) {
          const mine = await tx.query("SELECT 1 FROM alarm_detection_pending WHERE id = $1 FOR UPDATE SKIP LOCKED", [lockNote]);
          if (mine.rowCount === 0) return null;
        }
        return applyUnit(tx, { ...unit, notes: [...unit.notes, ...quiet] }, deps.clearHoldMs, levelOf);
      });
      if (!outcome) {
        quietNotes.push(...quiet);
        return;
      }
      for (const [deviceId, open] of outcome.devices) {
        if (open) hint.add(deviceId);
        else hint.delete(deviceId);
      }
      if (outcome.opened.length > 0) deps.onOpened(outcome.opened);
    } catch (error) {
      quietNotes.push(...quiet);
      throw error;
    }
  }

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(t);
        resolve();
      };
    });

  /** A live step, tried again while the database refuses it — until the failure outlasts `recoveryAfterMs`. */
  async function runLive(unit: DetectionUnit): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await exclusive(() => run(unit));
        failingSince = null;
        return;
      } catch (error) {
        deps.metrics?.alarmDetectionFailures.inc();
        failingSince ??= Date.now();
        const given = stopped || Date.now() - failingSince >= recoveryAfterMs;
        deps.log.error(
          { err: error, frames: unit.frames.length, events: unit.events.length, attempt },
          given ? "alarm detection failed; left for the recovery pass" : "alarm detection failed; retrying",
        );
        if (given) return;
        await pause(Math.min(5000, 100 * 2 ** Math.min(attempt, 6)));
        if (stopped) return;
      }
    }
  }

  /** Takes what is queued (up to the limits) as one unit, leaving out readings that cannot change anything. */
  function nextUnit(): { unit: DetectionUnit | null; notes: string[] } {
    const taken: FrameFacts[] = [];
    const events: EventFacts[] = [];
    const notes: string[] = [];
    while (queue.length > 0) {
      const u = queue[0] as DetectionUnit;
      const size = taken.length + events.length;
      if (size > 0 && (taken.length + u.frames.length > MAX_FRAMES || events.length + u.events.length > MAX_EVENTS)) break;
      queue.shift();
      taken.push(...u.frames);
      events.push(...u.events);
      notes.push(...u.notes);
    }
    // A quiet reading (nothing active) changes nothing for a device without open alarms, unless this unit opens one.
    const raising = new Set(events.map((e) => e.device.id));
    for (const f of taken) if (observationsOfFrame(f).length > 0) raising.add(f.device.id);
    const frames = taken.filter((f) => hint.has(f.device.id) || raising.has(f.device.id));
    return { unit: frames.length + events.length > 0 ? { frames, events, notes } : null, notes };
  }

  function kick() {
    if (working || stopped) return;
    working = (async () => {
      while (queue.length > 0 && !stopped) {
        const { unit, notes } = nextUnit();
        if (unit) await runLive(unit);
        else quietNotes.push(...notes);
      }
    })().finally(() => {
      working = null;
      if (queue.length > 0) kick();
    });
  }

  async function deleteQuietNotes() {
    if (quietNotes.length === 0) return;
    const ids = quietNotes;
    quietNotes = [];
    try {
      await deps.db.query("DELETE FROM alarm_detection_pending WHERE id = ANY($1::uuid[])", [ids]);
    } catch (error) {
      quietNotes.push(...ids);
      throw error;
    }
  }

  async function loadHint() {
    const { rows } = await deps.db.query<{ device_id: number }>(
      "SELECT DISTINCT device_id FROM device_alarm WHERE cleared_at IS NULL",
    );
    hint.clear();
    for (const r of rows) hint.add(r.device_id);
  }

  /** Closes alarms whose condition has been clear for the hold on the console's clock (devices that went quiet, or whose clock says otherwise). */
  async function sweep(now = Date.now()): Promise<number> {
    return deps.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ device_id: number }>(
        `UPDATE device_alarm SET cleared_at = greatest(occurred_at, coalesce(clearing_since, clearing_seen_at)),
                closed_seen_at = to_timestamp($2 / 1000.0)
          WHERE cleared_at IS NULL AND clearing_seen_at IS NOT NULL
            AND clearing_seen_at <= to_timestamp($2 / 1000.0) - make_interval(secs => $1)
          RETURNING device_id`,
        [deps.clearHoldMs / 1000, now],
      );
      await refreshDeviceStatus(tx, [...new Set(rows.map((r) => r.device_id))]);
      return rows.length;
    });
  }

  /** What no step settled within `recoveryAfterMs`, applied from the database (alarm-recovery.ts). */
  const recover = () =>
    recoveryPass({
      db: deps.db,
      log: deps.log,
      metrics: deps.metrics,
      afterS: recoveryAfterMs / 1000,
      maxEvents: MAX_EVENTS,
      apply: (unit, lockNote) => exclusive(() => run(unit, lockNote)),
    });

  const every = (ms: number, what: string, fn: () => Promise<unknown>) => {
    const t = setInterval(
      () => void exclusive(fn).catch((error) => throttled.warn(what, { err: error }, `alarm detection: ${what} failed`)),
      ms,
    );
    t.unref();
    timers.push(t);
  };

  return {
    /**
     * This process's own upkeep (its quiet notes, its hint) and one recovery pass for what a stop
     * left. The sweep and the periodic recovery pass are not here: they run in one process of the
     * console, under the `alarm-sweeps` lease (cluster/console-jobs.ts), every `sweepEveryMs` and
     * `recoveryAfterMs`.
     */
    async start() {
      await loadHint();
      await recover();
      every(1000, "note upkeep", deleteQuietNotes);
      every(HINT_REFRESH_MS, "hint refresh", loadHint);
    },
    sweepEveryMs: Math.min(5000, Math.max(250, deps.clearHoldMs / 4)),
    recoveryAfterMs,
    /** Committed readings of one ingest batch (`noteId`: the batch's note, settled with them). */
    frames(frames: readonly FrameFacts[], noteId: string | null) {
      queue.push({ frames, events: [], notes: noteId ? [noteId] : [] });
      kick();
    },
    /** A stored alarm event. */
    event(event: EventFacts) {
      queue.push({ frames: [], events: [event], notes: [] });
      kick();
    },
    /** Resolves once everything handed over so far was applied (or left for the recovery pass). */
    async settled() {
      while (working && !stopped) await working;
      await serial;
    },
    sweep: () => exclusive(() => sweep()),
    /** Through `recover` itself (not `exclusive`): it takes turns step by step. */
    recover,
    /** Forgets what it believes about open alarms (after removals), reloading from the database. */
    reload: () => exclusive(loadHint),
    async stop() {
      stopped = true;
      for (const t of timers) clearInterval(t);
      wake?.();
      await working;
      await serial;
      // What is still queued stays in the database for the next start's recovery.
      await deleteQuietNotes().catch(() => {});
    },
  };
}

export type AlarmDetector = ReturnType<typeof createAlarmDetector>;
