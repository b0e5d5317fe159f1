import { randomisedSpan } from "@ess/domain";
import { EVENT_STATUS, RESPONSE_STATUS } from "@ess/sep2";
import type { CommandRow } from "./grid.repository.ts";

/**
 * Which response an event control is due next, from what the utility said of it (its status) and
 * the time: received → started at its start → completed at its end; cancelled or superseded by the
 * utility; superseded by the client when an event of a program with a lower primacy (higher
 * priority) is in force at the same time (IEEE 2030.5 event rules, CSIP-AUS GEN-10).
 */

type EventTimes = Pick<CommandRow, "mrid" | "startAt" | "durationS"> &
  Partial<Pick<CommandRow, "randomizeStart" | "randomizeDuration">>;
type Event = Pick<CommandRow, "primacy" | "eventStatus" | "responseStatus"> & EventTimes;

/** The event's times at the site, randomised by its seed as the control schedule has them. */
export function span(row: EventTimes, seed: string): { start: number; end: number } {
  if (!row.startAt) return { start: Number.POSITIVE_INFINITY, end: Number.POSITIVE_INFINITY };
  return randomisedSpan(seed, { ...row, start: row.startAt.getTime(), durationS: row.durationS ?? 0 });
}

const withdrawn = (row: Event) =>
  row.eventStatus === EVENT_STATUS.cancelled ||
  row.eventStatus === EVENT_STATUS.cancelledWithRandomization ||
  row.eventStatus === EVENT_STATUS.superseded ||
  row.responseStatus === RESPONSE_STATUS.cancelled ||
  row.responseStatus === RESPONSE_STATUS.superseded;

/** Whether another live event of higher priority is in force at `nowMs` while `row` is too. */
function outranked(row: Event, nowMs: number, others: readonly Event[], seed: string): boolean {
  const mine = span(row, seed);
  if (nowMs < mine.start || nowMs >= mine.end) return false;
  return others.some((other) => {
    if (other.mrid === row.mrid || withdrawn(other)) return false;
    if ((other.primacy ?? Number.POSITIVE_INFINITY) >= (row.primacy ?? Number.POSITIVE_INFINITY)) return false;
    const theirs = span(other, seed);
    return nowMs >= theirs.start && nowMs < theirs.end;
  });
}

/**
 * The next response `row` is due at the utility's time `nowMs`, among the site's open events; null
 * when none yet. `seed` is the site's randomisation seed (its LFDI), so "started" goes out when the
 * site's randomised start comes.
 */
export function dueResponse(row: Event, nowMs: number, others: readonly Event[] = [], seed = ""): number | null {
  const last = row.responseStatus;
  if (row.eventStatus === EVENT_STATUS.cancelled || row.eventStatus === EVENT_STATUS.cancelledWithRandomization)
    return RESPONSE_STATUS.cancelled;
  if (row.eventStatus === EVENT_STATUS.superseded) return RESPONSE_STATUS.superseded;
  if ((last === RESPONSE_STATUS.received || last === RESPONSE_STATUS.started) && outranked(row, nowMs, others, seed))
    return RESPONSE_STATUS.superseded;
  const { start, end } = span(row, seed);
  if (nowMs >= end) {
    if (last === RESPONSE_STATUS.started) return RESPONSE_STATUS.completed;
    // An event that ran entirely between two looks: started, then completed.
    return last === RESPONSE_STATUS.received ? RESPONSE_STATUS.started : null;
  }
  if (nowMs >= start && last === RESPONSE_STATUS.received) return RESPONSE_STATUS.started;
  return null;
}
