import type { AlarmEvent } from "@ess/contracts";
import { ERROR_LEVEL, type FaultLevel, type FaultSystemType, type FaultTrigger, faultTriggers } from "@ess/domain";
import type { Db, Queryable } from "../../db/db.ts";
import type { DeviceRef } from "../telemetry/device-directory.ts";
import type { Log } from "../telemetry/log.ts";
import type { StoredFrame } from "../telemetry/telemetry-writer.ts";
import type { FaultCatalogueCache } from "./fault-cache.ts";

/** What a frame or an alarm event says about one condition of one device at one device time. */
export interface Observation {
  deviceId: number;
  tenantId: number;
  systemType: FaultSystemType;
  code: number;
  /** The device's own level for the code, used when the catalogue does not know it. */
  level: number | null;
  active: boolean;
  ts: number;
}

/** An alarm that just opened (for notification). */
export interface OpenedAlarm {
  id: number;
  deviceId: number;
  tenantId: number;
  sn: string;
  code: number;
  level: FaultLevel;
  systemType: FaultSystemType;
  occurredAt: number;
}

interface OpenState {
  id: number;
  level: number;
  lastTs: number;
  clearingSince: number | null;
}

const TRIGGERS: Record<FaultSystemType, { code: number; level: FaultLevel; trigger: FaultTrigger }[]> = {
  1: faultTriggers(1),
  2: faultTriggers(2),
};

/**
 * The conditions a frame's alarm and status words show for every code its product can raise: the
 * active ones, and the clear ones too when `withClear` (a device with open alarms, which a clear
 * condition may close). A quiet device's frame thus makes no objects: this runs for every frame.
 */
export function observationsOfFrame(frame: Pick<StoredFrame, "device" | "ts" | "words">, withClear = true): Observation[] {
  const words = frame.words;
  if (!words || words.size === 0) return [];
  let systemType: FaultSystemType = 1;
  for (const k of words.keys()) {
    if (k.startsWith("TP_")) {
      systemType = 2;
      break;
    }
  }
  const out: Observation[] = [];
  for (const { code, level, trigger } of TRIGGERS[systemType]) {
    const word = words.get(trigger.key);
    if (word === undefined) continue;
    const active = "bit" in trigger ? (word & (1 << trigger.bit)) !== 0 : word === 0;
    if (!active && !withClear) continue;
    out.push({ deviceId: frame.device.id, tenantId: frame.device.tenantId, systemType, code, level, active, ts: frame.ts });
  }
  return out;
}

/** An alarm event as an observation; an event without a code takes the code its bit stands for. */
export function observationOfEvent(device: DeviceRef, e: AlarmEvent): Observation | null {
  const systemType: FaultSystemType = device.phaseType ?? (e.key.startsWith("TP_") ? 2 : 1);
  const code =
    e.code ??
    TRIGGERS[systemType].find(({ trigger }) => trigger.key === e.key && "bit" in trigger && trigger.bit === e.bit)?.code;
  if (code === undefined) return null;
  return {
    deviceId: device.id,
    tenantId: device.tenantId,
    systemType,
    code,
    level: e.level ?? null,
    active: e.state === "occur",
    ts: e.ts,
  };
}

/**
 * The alarm life cycle. An alarm opens once per device and code (a partial unique index makes it so
 * across processes and restarts); it closes when its condition has stayed clear for `clearHoldMs`
 * of device time (or of server time, for a device that stopped reporting), and a condition that
 * returns within that hold is the same alarm with its flap count raised — a flapping signal is one
 * alarm, not a storm of them. Observations older than what an alarm already saw (buffered frames)
 * change nothing. Device status 3 follows open alarms of the error level. Open alarms are loaded
 * from the database at start, so a restart neither duplicates nor loses them.
 */
export function createAlarmDetector(deps: {
  db: Db;
  catalogue: FaultCatalogueCache;
  log: Log;
  clearHoldMs: number;
  onOpened: (alarms: OpenedAlarm[]) => void;
}) {
  const open = new Map<number, Map<number, OpenState>>();
  let chain: Promise<void> = Promise.resolve();
  let sweepTimer: NodeJS.Timeout | null = null;

  const stateOf = (deviceId: number, code: number) => open.get(deviceId)?.get(code);
  const setState = (deviceId: number, code: number, s: OpenState | null) => {
    let m = open.get(deviceId);
    if (!s) {
      m?.delete(code);
      if (m?.size === 0) open.delete(deviceId);
      return;
    }
    if (!m) {
      m = new Map();
      open.set(deviceId, m);
    }
    m.set(code, s);
  };

  async function load() {
    const { rows } = await deps.db.query<{
      id: number;
      device_id: number;
      code: number;
      level: number;
      last_ts: Date;
      clearing_since: Date | null;
    }>("SELECT id, device_id, code, level, last_ts, clearing_since FROM device_alarm WHERE cleared_at IS NULL");
    open.clear();
    for (const r of rows) {
      setState(r.device_id, r.code, {
        id: r.id,
        level: r.level,
        lastTs: r.last_ts.getTime(),
        clearingSince: r.clearing_since?.getTime() ?? null,
      });
    }
  }

  async function refreshDeviceStatus(tx: Queryable, deviceIds: number[]) {
    if (deviceIds.length === 0) return;
    await tx.query(
      `UPDATE device d SET status = CASE
          WHEN EXISTS (SELECT 1 FROM device_alarm a WHERE a.device_id = d.id AND a.cleared_at IS NULL AND a.level = $2) THEN 3
          WHEN d.status = 3 THEN 0 ELSE d.status END
        WHERE d.id = ANY($1::bigint[])`,
      [deviceIds, ERROR_LEVEL],
    );
  }

  async function apply(observations: Observation[]) {
    const opened: OpenedAlarm[] = [];
    const touched = new Set<number>();
    // Levels from the catalogue first: inside the transaction only `tx` may be used (one connection on PGlite).
    const levels = new Map<Observation, FaultLevel>();
    for (const o of observations) {
      if (!o.active || stateOf(o.deviceId, o.code)) continue;
      const known = await deps.catalogue.fault(o.tenantId, o.code, o.systemType);
      levels.set(o, (known?.level ?? (o.level && o.level >= 1 && o.level <= 3 ? o.level : 2)) as FaultLevel);
    }
    await deps.db.transaction(async (tx) => {
      for (const o of observations) {
        const s = stateOf(o.deviceId, o.code);
        if (o.active) {
          if (s) {
            if (o.ts < s.lastTs) continue;
            if (s.clearingSince !== null) {
              // Back within the hold: the same alarm, one more flap.
              await tx.query(
                `UPDATE device_alarm SET flap_count = flap_count + 1, clearing_since = NULL, clearing_seen_at = NULL,
                        last_ts = to_timestamp($2 / 1000.0) WHERE id = $1`,
                [s.id, o.ts],
              );
              s.clearingSince = null;
            }
            s.lastTs = o.ts;
            continue;
          }
          const level = levels.get(o) ?? 2;
          // A condition seen by an older (buffered) reading of an alarm that has closed since does not reopen it.
          const { rows } = await tx.query<{ id: number; sn: string }>(
            `INSERT INTO device_alarm (device_id, code, level, system_type, occurred_at, last_ts)
             SELECT $1, $2, $3, $4, to_timestamp($5 / 1000.0), to_timestamp($5 / 1000.0)
              WHERE NOT EXISTS (SELECT 1 FROM device_alarm WHERE device_id = $1 AND code = $2 AND cleared_at >= to_timestamp($5 / 1000.0))
             ON CONFLICT (device_id, code) WHERE cleared_at IS NULL DO NOTHING
             RETURNING id, (SELECT sn FROM device WHERE id = $1) AS sn`,
            [o.deviceId, o.code, level, o.systemType, o.ts],
          );
          const row = rows[0];
          if (row) {
            setState(o.deviceId, o.code, { id: row.id, level, lastTs: o.ts, clearingSince: null });
            touched.add(o.deviceId);
            opened.push({
              id: row.id,
              deviceId: o.deviceId,
              tenantId: o.tenantId,
              sn: row.sn,
              code: o.code,
              level,
              systemType: o.systemType,
              occurredAt: o.ts,
            });
          } else {
            // Another process opened it meanwhile (or an older reading): take the stored state.
            const { rows: current } = await tx.query<{ id: number; level: number; last_ts: Date; clearing_since: Date | null }>(
              "SELECT id, level, last_ts, clearing_since FROM device_alarm WHERE device_id = $1 AND code = $2 AND cleared_at IS NULL",
              [o.deviceId, o.code],
            );
            const c = current[0];
            if (c) {
              setState(o.deviceId, o.code, {
                id: c.id,
                level: c.level,
                lastTs: c.last_ts.getTime(),
                clearingSince: c.clearing_since?.getTime() ?? null,
              });
            }
          }
          continue;
        }
        if (!s || o.ts < s.lastTs) continue;
        if (s.clearingSince === null) {
          await tx.query(
            `UPDATE device_alarm SET clearing_since = to_timestamp($2 / 1000.0), clearing_seen_at = now(),
                    last_ts = to_timestamp($2 / 1000.0) WHERE id = $1`,
            [s.id, o.ts],
          );
          s.clearingSince = o.ts;
          s.lastTs = o.ts;
          if (deps.clearHoldMs > 0) continue;
        }
        s.lastTs = o.ts;
        if (o.ts - s.clearingSince >= deps.clearHoldMs) {
          await tx.query(
            "UPDATE device_alarm SET cleared_at = clearing_since, last_ts = to_timestamp($2 / 1000.0) WHERE id = $1",
            [s.id, o.ts],
          );
          setState(o.deviceId, o.code, null);
          touched.add(o.deviceId);
        }
      }
      await refreshDeviceStatus(tx, [...touched]);
    });
    if (opened.length > 0) deps.onOpened(opened);
  }

  /** Closes alarms whose condition has been clear for the hold time of server time (devices that went quiet). */
  async function sweep() {
    await deps.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ device_id: number; code: number }>(
        `UPDATE device_alarm SET cleared_at = clearing_since
          WHERE cleared_at IS NULL AND clearing_seen_at IS NOT NULL AND clearing_seen_at <= now() - make_interval(secs => $1)
          RETURNING device_id, code`,
        [deps.clearHoldMs / 1000],
      );
      for (const r of rows) setState(r.device_id, r.code, null);
      await refreshDeviceStatus(tx, [...new Set(rows.map((r) => r.device_id))]);
    });
  }

  /** Runs one step after the other, so frames and events of a device never race each other. */
  const enqueue = (work: () => Promise<void>) => {
    const next = chain.then(work).catch((error) => deps.log.error({ err: error }, "alarm detection failed"));
    chain = next;
    return next;
  };

  return {
    async start(sweepEveryMs = 5000) {
      await load();
      sweepTimer = setInterval(() => void enqueue(sweep), sweepEveryMs);
      sweepTimer.unref();
    },
    /** Whether the device has an alarm open (its clear conditions matter). */
    hasOpen: (deviceId: number) => open.has(deviceId),
    observe(observations: Observation[]): Promise<void> {
      // Quiet frames (no alarm open, nothing active) need no database work.
      const relevant = observations.filter((o) => o.active || stateOf(o.deviceId, o.code));
      if (relevant.length === 0) return chain;
      return enqueue(() => apply(relevant));
    },
    /** Resolves once everything observed so far is written. */
    settled: () => chain,
    /** Forgets the open alarms of removed records (after a delete), reloading from the database. */
    reload: () => enqueue(load),
    sweep: () => enqueue(sweep),
    async stop() {
      if (sweepTimer) clearInterval(sweepTimer);
      await chain;
    },
  };
}

export type AlarmDetector = ReturnType<typeof createAlarmDetector>;
