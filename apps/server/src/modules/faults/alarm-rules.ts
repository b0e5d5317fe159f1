import { believedDeviceTime } from "@ess/domain";
import type { Observation } from "./alarm-observations.ts";

/** An open alarm as its life cycle needs it (times in ms; the row of device_alarm). */
export interface AlarmState {
  id: number;
  level: number;
  occurredAt: number;
  /** The newest device time seen (believed: never later than its arrival). */
  lastTs: number;
  /** Device time the condition cleared, while the device's own account says it is clear. */
  clearingSince: number | null;
  /** Console time the condition was last seen active. */
  activeSeenAt: number;
  /** Console time the condition was first seen clear after that. */
  clearingSeenAt: number | null;
  flapCount: number;
}

/** What a closed alarm of the same device and code says about an observation that would open a new one. */
export interface ClosedAlarm {
  /** Console time it closed (null in rows from before it was kept). */
  closedSeenAt: number | null;
  /** Device time its condition cleared. */
  clearedAt: number;
}

export interface Step {
  state: AlarmState;
  changed: boolean;
  /** Set when the alarm closes with this observation. */
  close: { clearedAt: number; closedSeenAt: number } | null;
}

/** A new alarm from an active observation. */
export function openedState(o: Observation, id: number, level: number): AlarmState {
  const ts = believedDeviceTime(o.ts, o.receivedAt);
  return {
    id,
    level,
    occurredAt: ts,
    lastTs: ts,
    clearingSince: null,
    activeSeenAt: o.receivedAt,
    clearingSeenAt: null,
    flapCount: 0,
  };
}

/**
 * Whether an active observation belongs to an alarm that closed already, rather than opening a new
 * one: it arrived before that alarm closed (a step applied late or twice), or the device marked it
 * as sent late and dated it before the alarm's condition cleared.
 */
export function coveredByClosed(o: Observation, closed: ClosedAlarm | undefined): boolean {
  if (!closed) return false;
  const ts = believedDeviceTime(o.ts, o.receivedAt);
  if (closed.closedSeenAt === null) return closed.clearedAt >= ts;
  return closed.closedSeenAt >= o.receivedAt || (o.late && closed.clearedAt >= ts);
}

/**
 * One observation applied to an open alarm, on two clocks.
 *
 * The device's account, in its own time (believed no later than arrival, so a clock running ahead
 * cannot make later readings look old): a reading older than the newest one seen — buffered, or
 * overtaken — changes nothing; a condition back within the hold is the same alarm with its flap
 * count raised; the alarm closes when the device's readings show it clear for the hold.
 *
 * The console's clock, which no device clock can move: the hold also runs from the moment the
 * console first received a clear observation after the last active one (whatever their device
 * times), so an alarm closes at the latest `holdMs` after the condition was seen gone. Observations
 * the device marked as late are history and take no part in it. Arrival times make this part
 * independent of the order steps are applied in, so a step applied twice (after a failure, by the
 * recovery pass) changes nothing.
 */
export function step(s: AlarmState, o: Observation, holdMs: number): Step {
  const ts = believedDeviceTime(o.ts, o.receivedAt);
  const n: AlarmState = { ...s };
  let deviceClosed = false;
  if (ts >= s.lastTs) {
    n.lastTs = ts;
    if (o.active) {
      if (n.clearingSince !== null) {
        n.flapCount++;
        n.clearingSince = null;
      }
    } else {
      n.clearingSince ??= ts;
      deviceClosed = ts - n.clearingSince >= holdMs;
    }
  }
  if (!o.late) {
    if (o.active) {
      n.activeSeenAt = Math.max(n.activeSeenAt, o.receivedAt);
      if (n.clearingSeenAt !== null && o.receivedAt >= n.clearingSeenAt) n.clearingSeenAt = null;
    } else if (o.receivedAt > n.activeSeenAt && (n.clearingSeenAt === null || o.receivedAt < n.clearingSeenAt)) {
      n.clearingSeenAt = o.receivedAt;
    }
  }
  const consoleClosed = n.clearingSeenAt !== null && o.receivedAt - n.clearingSeenAt >= holdMs;
  const changed =
    n.lastTs !== s.lastTs ||
    n.clearingSince !== s.clearingSince ||
    n.activeSeenAt !== s.activeSeenAt ||
    n.clearingSeenAt !== s.clearingSeenAt ||
    n.flapCount !== s.flapCount;
  if (!deviceClosed && !consoleClosed) return { state: n, changed, close: null };
  const clearedAt = deviceClosed && n.clearingSince !== null ? n.clearingSince : closedAtOf(n);
  return { state: n, changed: true, close: { clearedAt, closedSeenAt: o.receivedAt } };
}

/** The time shown as an alarm's end when the console's clock closes it: the device's, else the console's. */
export function closedAtOf(s: Pick<AlarmState, "occurredAt" | "clearingSince" | "clearingSeenAt">): number {
  return Math.max(s.occurredAt, s.clearingSince ?? s.clearingSeenAt ?? s.occurredAt);
}
