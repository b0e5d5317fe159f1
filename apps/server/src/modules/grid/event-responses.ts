import { randomisedSpan } from "@ess/domain";
import { EVENT_STATUS, RESPONSE_STATUS } from "@ess/sep2";
import type { ControlOutcome } from "./control-applier.ts";
import type { CommandRow } from "./grid.repository.ts";

/**
 * Which response an event control is due next, from what the utility said of it (its status) and
 * the time: received → started at its start → completed at its end; cancelled or superseded by the
 * utility; superseded by the client when events of programs with a lower primacy (higher
 * priority) in force at the same time set every mode it sets (IEEE 2030.5 event rules, CSIP-AUS
 * GEN-10). One that still sets a mode none of them does is partly in force, so it starts: CSIP-AUS
 * merges controls mode by mode (GEN-10's export limit of primacy 2 beside a generation limit of 1).
 *
 * How the site's device took the event (its take, known once the event's control was applied)
 * changes the answer, so the utility knows a site that does not follow: refused by the device →
 * opted out (4); none of the event's modes within the product's reach → not applicable (252), some
 * of them → partly opted out (8) after started; still not taken when the event ends (offline, its
 * writes still queued) → completed without participation (10) instead of completed (3).
 */

/** How the site's device took the event whose control was applied to it (control-applier). */
export interface DeviceTake {
  outcome: ControlOutcome;
  /** The control's fields the device's product cannot carry out. */
  notApplicable: readonly string[];
}

/**
 * The outcome of a device known not to have taken the control: its writes wait in the queue for
 * it to come back. An unanswered write is not that: the device may have taken it and its answer
 * been lost (a console restart in between), so it is not told as no participation.
 */
const NOT_TAKEN = new Set<ControlOutcome>(["queued"]);

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

/** Responses after which an event is still open: more follow (started, completed…). */
export const OPEN_RESPONSES: ReadonlySet<number> = new Set([
  RESPONSE_STATUS.received,
  RESPONSE_STATUS.started,
  RESPONSE_STATUS.partialOptOut,
]);

/** Which of the event's own modes the device's product cannot carry out, and how many it sets. */
function unreachable(row: Event, take: DeviceTake): { some: boolean; all: boolean } {
  const own = modes(row) ?? [];
  const out = own.filter((mode) => take.notApplicable.includes(mode));
  return { some: out.length > 0, all: own.length > 0 && out.length === own.length };
}

/**
 * The next response `row` is due at the utility's time `nowMs`, among the site's open events; null
 * when none yet. `seed` is the site's randomisation seed (its LFDI), so "started" goes out when the
 * site's randomised start comes; `take` is how the site's device took the event, when known.
 */
export function dueResponse(
  row: Event,
  nowMs: number,
  others: readonly Event[] = [],
  seed = "",
  take?: DeviceTake,
): number | null {
  const last = row.responseStatus;
  if (row.eventStatus === EVENT_STATUS.cancelled || row.eventStatus === EVENT_STATUS.cancelledWithRandomization)
    return RESPONSE_STATUS.cancelled;
  if (row.eventStatus === EVENT_STATUS.superseded) return RESPONSE_STATUS.superseded;
  const open = last !== null && OPEN_RESPONSES.has(last);
  if (open && outranked(row, nowMs, others, seed)) return RESPONSE_STATUS.superseded;
  const reach = take ? unreachable(row, take) : { some: false, all: false };
  if (open && reach.all) return RESPONSE_STATUS.notApplicable;
  if (open && take?.outcome === "refused") return RESPONSE_STATUS.optOut;
  const { start, end } = span(row, seed);
  if (nowMs >= end) {
    if (last === RESPONSE_STATUS.started || last === RESPONSE_STATUS.partialOptOut)
      return take && NOT_TAKEN.has(take.outcome) ? RESPONSE_STATUS.completedNoParticipation : RESPONSE_STATUS.completed;
    // An event that ran entirely between two looks: started, then completed.
    return last === RESPONSE_STATUS.received ? RESPONSE_STATUS.started : null;
  }
  if (nowMs >= start && last === RESPONSE_STATUS.received) return RESPONSE_STATUS.started;
  if (last === RESPONSE_STATUS.started && reach.some) return RESPONSE_STATUS.partialOptOut;
  return null;
}
