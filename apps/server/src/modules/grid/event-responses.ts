import { EVENT_STATUS, RESPONSE_STATUS } from "@ess/sep2";
import type { CommandRow } from "./grid.repository.ts";

/**
 * Which response an event control is due next, from what the utility said of it (its status) and
 * the time: received → started at its start → completed at its end; cancelled or superseded by the
 * utility; superseded by the client when an event of a program with a lower primacy (higher
 * priority) is in force at the same time (IEEE 2030.5 event rules, CSIP-AUS GEN-10).
 */

type EventTimes = Pick<CommandRow, "startAt" | "durationS">;
type Event = Pick<CommandRow, "mrid" | "primacy" | "eventStatus" | "responseStatus"> & EventTimes;

function span(row: EventTimes): { start: number; end: number } {
  const start = row.startAt?.getTime() ?? Number.POSITIVE_INFINITY;
  return { start, end: start + (row.durationS ?? 0) * 1000 };
}

const withdrawn = (row: Event) =>
  row.eventStatus === EVENT_STATUS.cancelled ||
  row.eventStatus === EVENT_STATUS.cancelledWithRandomization ||
  row.eventStatus === EVENT_STATUS.superseded ||
  row.responseStatus === RESPONSE_STATUS.cancelled ||
  row.responseStatus === RESPONSE_STATUS.superseded;

/** Whether another live event of higher priority is in force at `nowMs` while `row` is too. */
function outranked(row: Event, nowMs: number, others: readonly Event[]): boolean {
  const mine = span(row);
  if (nowMs < mine.start || nowMs >= mine.end) return false;
  return others.some((other) => {
    if (other.mrid === row.mrid || withdrawn(other)) return false;
    if ((other.primacy ?? Number.POSITIVE_INFINITY) >= (row.primacy ?? Number.POSITIVE_INFINITY)) return false;
    const theirs = span(other);
    return nowMs >= theirs.start && nowMs < theirs.end;
  });
}

/** The next response `row` is due at the utility's time `nowMs`, among the site's open events; null when none yet. */
export function dueResponse(row: Event, nowMs: number, others: readonly Event[] = []): number | null {
  const last = row.responseStatus;
  if (row.eventStatus === EVENT_STATUS.cancelled || row.eventStatus === EVENT_STATUS.cancelledWithRandomization)
    return RESPONSE_STATUS.cancelled;
  if (row.eventStatus === EVENT_STATUS.superseded) return RESPONSE_STATUS.superseded;
  if ((last === RESPONSE_STATUS.received || last === RESPONSE_STATUS.started) && outranked(row, nowMs, others))
    return RESPONSE_STATUS.superseded;
  const { start, end } = span(row);
  if (nowMs >= end) {
    if (last === RESPONSE_STATUS.started) return RESPONSE_STATUS.completed;
    // An event that ran entirely between two looks: started, then completed.
    return last === RESPONSE_STATUS.received ? RESPONSE_STATUS.started : null;
  }
  if (nowMs >= start && last === RESPONSE_STATUS.received) return RESPONSE_STATUS.started;
  return null;
}
