import { ERROR_LEVEL, type FaultLevel, type FaultSystemType } from "@ess/domain";
import type { Queryable } from "../../db/db.ts";
import { numberArray } from "../../db/number-array.ts";
import {
  type EventFacts,
  type FrameFacts,
  type Observation,
  observationOfEvent,
  observationsOfFrame,
} from "./alarm-observations.ts";
import { type AlarmState, type ClosedAlarm, coveredByClosed, openedState, step } from "./alarm-rules.ts";

/** Observations applied together, in one transaction, with the notes and events they settle. */
export interface DetectionUnit {
  frames: readonly FrameFacts[];
  events: readonly EventFacts[];
  /** Ingest batch notes (alarm_detection_pending) whose readings these frames are. */
  notes: readonly string[];
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
  /** Console time the observation that opened it arrived (storm windows count by it). */
  openedSeenAt: number;
}

export interface UnitOutcome {
  opened: OpenedAlarm[];
  /** The devices of the unit, each with whether it has an alarm open after it. */
  devices: Map<number, boolean>;
}

/** The level a new alarm of an observation gets: the catalogue's, else the device's, else 2. */
export type LevelOf = (o: Observation) => FaultLevel;

interface OpenRow {
  id: number;
  device_id: number;
  code: number;
  level: number;
  occurred_at: Date;
  last_ts: Date;
  clearing_since: Date | null;
  active_seen_at: Date;
  clearing_seen_at: Date | null;
  flap_count: number;
}
const OPEN_COLUMNS = `id, device_id, code, level, occurred_at, last_ts, clearing_since,
  coalesce(active_seen_at, created_at) AS active_seen_at, clearing_seen_at, flap_count`;
const toState = (r: OpenRow): AlarmState => ({
  id: r.id,
  level: r.level,
  occurredAt: r.occurred_at.getTime(),
  lastTs: r.last_ts.getTime(),
  clearingSince: r.clearing_since?.getTime() ?? null,
  activeSeenAt: r.active_seen_at.getTime(),
  clearingSeenAt: r.clearing_seen_at?.getTime() ?? null,
  flapCount: r.flap_count,
});
const keyOf = (deviceId: number, code: number) => `${deviceId}:${code}`;

/** Sets device status 3 while an error-level alarm is open, and takes it back to 0 when none is. */
export async function refreshDeviceStatus(tx: Queryable, deviceIds: number[]) {
  if (deviceIds.length === 0) return;
  await tx.query(
    `UPDATE device d SET status = CASE
        WHEN EXISTS (SELECT 1 FROM device_alarm a WHERE a.device_id = d.id AND a.cleared_at IS NULL AND a.level = $2) THEN 3
        WHEN d.status = 3 THEN 0 ELSE d.status END
      WHERE d.id = ANY($1::bigint[])`,
    [numberArray([...deviceIds].sort((a, b) => a - b)), ERROR_LEVEL],
  );
}

/**
 * Applies a unit in the caller's transaction, on the alarms as the database holds them (locked,
 * so that console processes sharing the database take turns on a device's alarms): opens, moves
 * and closes alarms, sets the devices' status, and settles the unit's notes and events.
 */
export async function applyUnit(tx: Queryable, unit: DetectionUnit, holdMs: number, levelOf: LevelOf): Promise<UnitOutcome> {
  const deviceIds = [...new Set([...unit.frames.map((f) => f.device.id), ...unit.events.map((e) => e.device.id)])];
  const { rows } = await tx.query<OpenRow>(
    `SELECT ${OPEN_COLUMNS} FROM device_alarm WHERE cleared_at IS NULL AND device_id = ANY($1::bigint[])
      ORDER BY device_id, code FOR UPDATE`,
    [numberArray(deviceIds)],
  );
  const states = new Map(rows.map((r) => [keyOf(r.device_id, r.code), toState(r)]));
  // Clear conditions matter for alarms open now and for those the unit itself may open.
  const relevant = new Set(states.keys());
  const events = unit.events.flatMap((e) => observationOfEvent(e) ?? []);
  for (const o of [...unit.frames.flatMap((f) => observationsOfFrame(f)), ...events]) {
    if (o.active) relevant.add(keyOf(o.deviceId, o.code));
  }
  const observations = [...unit.frames.flatMap((f) => observationsOfFrame(f, (d, c) => relevant.has(keyOf(d, c)))), ...events];
  // Stable: per device and code in the order received; new alarms inserted in key order (no deadlock).
  observations.sort((a, b) => a.deviceId - b.deviceId || a.code - b.code || a.receivedAt - b.receivedAt);

  const closed = await closedAlarms(
    tx,
    observations.filter((o) => o.active && !states.has(keyOf(o.deviceId, o.code))),
  );
  const dirty = new Set<AlarmState>();
  const touched = new Set<number>();
  const opened: OpenedAlarm[] = [];
  for (const o of observations) {
    const key = keyOf(o.deviceId, o.code);
    let s = states.get(key);
    if (!s) {
      if (!o.active || coveredByClosed(o, closed.get(key))) continue;
      const created = await insertAlarm(tx, o, levelOf(o));
      if (created) {
        states.set(key, created.state);
        opened.push(created.opened);
        touched.add(o.deviceId);
        continue;
      }
      // Another process opened it since this step began: take it as stored, locked.
      const again = await tx.query<OpenRow>(
        `SELECT ${OPEN_COLUMNS} FROM device_alarm WHERE device_id = $1 AND code = $2 AND cleared_at IS NULL FOR UPDATE`,
        [o.deviceId, o.code],
      );
      if (!again.rows[0]) continue;
      s = toState(again.rows[0]);
      states.set(key, s);
    }
    const next = step(s, o, holdMs);
    if (next.close) {
      await tx.query(
        `UPDATE device_alarm SET cleared_at = to_timestamp($2 / 1000.0), closed_seen_at = to_timestamp($3 / 1000.0),
                last_ts = to_timestamp($4 / 1000.0), clearing_since = to_timestamp($5 / 1000.0),
                active_seen_at = to_timestamp($6 / 1000.0), clearing_seen_at = to_timestamp($7 / 1000.0), flap_count = $8
          WHERE id = $1`,
        [
          s.id,
          next.close.clearedAt,
          next.close.closedSeenAt,
          next.state.lastTs,
          next.state.clearingSince,
          next.state.activeSeenAt,
          next.state.clearingSeenAt,
          next.state.flapCount,
        ],
      );
      dirty.delete(s);
      states.delete(key);
      closed.set(key, { closedSeenAt: next.close.closedSeenAt, clearedAt: next.close.clearedAt });
      touched.add(o.deviceId);
    } else if (next.changed) {
      dirty.delete(s);
      states.set(key, next.state);
      dirty.add(next.state);
    }
  }
  await writeStates(tx, [...dirty]);
  await refreshDeviceStatus(tx, [...touched]);
  await settle(tx, unit);
  const devices = new Map(deviceIds.map((id) => [id, false]));
  for (const key of states.keys()) devices.set(Number(key.slice(0, key.indexOf(":"))), true);
  return { opened, devices };
}

/** The latest closed alarm of each device and code that observations would open anew. */
async function closedAlarms(tx: Queryable, candidates: Observation[]): Promise<Map<string, ClosedAlarm>> {
  const out = new Map<string, ClosedAlarm>();
  if (candidates.length === 0) return out;
  const pairs = [...new Map(candidates.map((o) => [keyOf(o.deviceId, o.code), o])).values()];
  const { rows } = await tx.query<{ device_id: number; code: number; closed_seen_at: Date | null; cleared_at: Date }>(
    `SELECT DISTINCT ON (a.device_id, a.code) a.device_id, a.code, a.closed_seen_at, a.cleared_at
       FROM device_alarm a JOIN unnest($1::bigint[], $2::int[]) AS x(device_id, code) ON a.device_id = x.device_id AND a.code = x.code
      WHERE a.cleared_at IS NOT NULL
      ORDER BY a.device_id, a.code, coalesce(a.closed_seen_at, a.cleared_at) DESC`,
    [numberArray(pairs.map((o) => o.deviceId)), numberArray(pairs.map((o) => o.code))],
  );
  for (const r of rows) {
    out.set(keyOf(r.device_id, r.code), { closedSeenAt: r.closed_seen_at?.getTime() ?? null, clearedAt: r.cleared_at.getTime() });
  }
  return out;
}

async function insertAlarm(tx: Queryable, o: Observation, level: FaultLevel) {
  const state = openedState(o, 0, level);
  const { rows } = await tx.query<{ id: number; sn: string }>(
    `INSERT INTO device_alarm (device_id, code, level, system_type, occurred_at, last_ts, active_seen_at, opened_seen_at)
     VALUES ($1, $2, $3, $4, to_timestamp($5 / 1000.0), to_timestamp($5 / 1000.0), to_timestamp($6 / 1000.0),
             to_timestamp($6 / 1000.0))
     ON CONFLICT (device_id, code) WHERE cleared_at IS NULL DO NOTHING
     RETURNING id, (SELECT sn FROM device WHERE id = $1) AS sn`,
    [o.deviceId, o.code, level, o.systemType, state.occurredAt, o.receivedAt],
  );
  const row = rows[0];
  if (!row) return null;
  const opened: OpenedAlarm = {
    id: row.id,
    deviceId: o.deviceId,
    tenantId: o.tenantId,
    sn: row.sn,
    code: o.code,
    level,
    systemType: o.systemType,
    occurredAt: state.occurredAt,
    openedSeenAt: o.receivedAt,
  };
  return { state: { ...state, id: row.id }, opened };
}

async function writeStates(tx: Queryable, states: AlarmState[]) {
  if (states.length === 0) return;
  await tx.query(
    `UPDATE device_alarm a SET last_ts = to_timestamp(x.last_ts / 1000.0), clearing_since = to_timestamp(x.clearing_since / 1000.0),
            active_seen_at = to_timestamp(x.active_seen_at / 1000.0), clearing_seen_at = to_timestamp(x.clearing_seen_at / 1000.0),
            flap_count = x.flap_count
       FROM unnest($1::bigint[], $2::float8[], $3::float8[], $4::float8[], $5::float8[], $6::int[])
            AS x(id, last_ts, clearing_since, active_seen_at, clearing_seen_at, flap_count)
      WHERE a.id = x.id`,
    [
      numberArray(states.map((s) => s.id)),
      numberArray(states.map((s) => s.lastTs)),
      numberArray(states.map((s) => s.clearingSince)),
      numberArray(states.map((s) => s.activeSeenAt)),
      numberArray(states.map((s) => s.clearingSeenAt)),
      numberArray(states.map((s) => s.flapCount)),
    ],
  );
}

/** The unit's batch notes go, its events count as applied: in the transaction that applied them. */
async function settle(tx: Queryable, unit: DetectionUnit) {
  if (unit.notes.length > 0) await tx.query("DELETE FROM alarm_detection_pending WHERE id = ANY($1::uuid[])", [unit.notes]);
  if (unit.events.length === 0) return;
  await tx.query(
    `UPDATE device_alarm_event e SET detected = true
       FROM unnest($1::bigint[], $2::int8[], $3::text[], $4::int[], $5::text[]) AS x(device_id, ts_ms, register, bit, state)
      WHERE e.device_id = x.device_id AND e.ts = to_timestamp(x.ts_ms / 1000.0) AND e.register = x.register
        AND e.bit = x.bit AND e.state = x.state`,
    [
      numberArray(unit.events.map((e) => e.device.id)),
      numberArray(unit.events.map((e) => e.event.ts)),
      unit.events.map((e) => e.event.key),
      numberArray(unit.events.map((e) => e.event.bit)),
      unit.events.map((e) => e.event.state),
    ],
  );
}
