import { randomisedSpan } from "@ess/domain";
import { EVENT_STATUS, RESPONSE_STATUS } from "@ess/sep2";
import type { CommandRow } from "./grid.repository.ts";

/**
 * Which response an event control is due next, from what the utility said of it (its status) and
 * the time: received → started at its start → completed at its end; cancelled or superseded by the
 * utility; superseded by the client when events of programs with a lower primacy (higher
 * priority) in force at the same time set every mode it sets (IEEE 2030.5 event rules, CSIP-AUS
 * GEN-10). One that still sets a mode none of them does is partly in force, so it starts: CSIP-AUS
 * merges controls mode by mode (GEN-10's export limit of primacy 2 beside a generation limit of 1).
 */

type EventTimes = Pick<CommandRow, "mrid" | "startAt" | "durationS"> &
  Partial<Pick<CommandRow, "randomizeStart" | "randomizeDuration">>;
type Event = Pick<CommandRow, "primacy" | "eventStatus" | "responseStatus"> &
  EventTimes &
  /** The DERControlBase; absent = unknown, taken to set every mode. */
  Partial<Pick<CommandRow, "controls">>;

/** The modes a control sets (the fields of its DERControlBase with a value). */
const modes = (row: Event): string[] | null =>
  row.controls
    ? Object.entries(row.controls)
        .filter(([, value]) => value !== undefined && value !== null)
        .map(([mode]) => mode)
    : null;

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

/** Whether live events of higher priority in force at `nowMs`, while `row` is too, set all its modes. */
function outranked(row: Event, nowMs: number, others: readonly Event[], seed: string): boolean {
  const mine = span(row, seed);
  if (nowMs < mine.start || nowMs >= mine.end) return false;
  const above = others.filter((other) => {
    if (other.mrid === row.mrid || withdrawn(other)) return false;
    if ((other.primacy ?? Number.POSITIVE_INFINITY) >= (row.primacy ?? Number.POSITIVE_INFINITY)) return false;
    const theirs = span(other, seed);
    return nowMs >= theirs.start && nowMs < theirs.end;
  });
  if (above.length === 0) return false;
  const covered = above.map(modes);
  if (covered.includes(null)) return true;
  const set = new Set(covered.flat());
  return (modes(row) ?? [""]).every((mode) => set.has(mode));
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
