import type { ScaledPower } from "./command-mode.ts";

/**
 * A site's control schedule (IEEE 2030.5 DER function set, CSIP-AUS): which control is in force at
 * a given moment, from every program's DefaultDERControl and event DERControls the site holds.
 *
 * Rules, and where they come from:
 * - An event is in force from its start to start + duration, both shifted by the site's own
 *   randomisation (randomizeStart / randomizeDuration: a random number of seconds between 0 and the
 *   signed value, IEEE 2030.5 RandomizableEvent). The draw is derived from a per-site seed and the
 *   event's mRID, so a restarted console finds the same offsets (ALL-22 checks the spread).
 * - Events the utility cancelled or superseded are out. "Cancelled with randomisation" ends the event
 *   at the cancellation time plus the event's random offset instead of at once.
 * - Among events in force, the lower primacy (program priority) wins, then the newer creationTime
 *   (IEEE 2030.5: of overlapping events of equal primacy, the larger creationTime is the newer and
 *   supersedes the older — the text open-dynamic-export quotes beside its sort, and what its
 *   scheduler does per time slice, csip-aus-client.md §3), then the larger mRID so the answer never
 *   depends on input order. Only one event applies: a losing event is answered "superseded"
 *   (event-responses, GEN-10), so applying any of its modes would contradict what the utility was
 *   told. (open-dynamic-export schedules each mode separately instead; we keep one winner so the
 *   schedule and the responses tell the same story.)
 * - The fallback is the DefaultDERControl of the program with the lowest primacy that has one
 *   (open-dynamic-export does the same; CSIP-AUS GEN-03/P-03 follow it once events end).
 * - Fields merge: the default fills each mode the winning event does not set. The DefaultDERControl
 *   is what applies "when no active event" of a mode is found, and open-dynamic-export applies it
 *   per control type (csip-aus-client.md §3): an export-limit event does not lift the default
 *   import limit, so a site under an event keeps its default limits for the modes the event is
 *   silent on. (The CSIP Implementation Guide itself was not read for this.)
 */

/** EventStatus.currentStatus (IEEE 2030.5). */
export const GRID_EVENT_STATUSES = Object.freeze({
  scheduled: 0,
  active: 1,
  cancelled: 2,
  cancelledWithRandomization: 3,
  superseded: 4,
});

/**
 * The modes of a DERControlBase as stored (plus the default's setGradW): what the schedule merges
 * and what the control mappings turn into settings (the shape of `@ess/sep2`'s DERControlBase).
 */
export interface ControlBase {
  opModConnect?: boolean;
  opModEnergize?: boolean;
  /** Signed hundredths of a percent of setMaxW; above zero exports. */
  opModFixedW?: number;
  /** PerCent: hundredths of a percent of the rated power. */
  opModMaxLimW?: number;
  rampTms?: number;
  opModImpLimW?: ScaledPower;
  opModExpLimW?: ScaledPower;
  /** Most the DER may generate (discharge and PV together), W. */
  opModGenLimW?: ScaledPower;
  /** Most the DER may consume (charge), W. */
  opModLoadLimW?: ScaledPower;
  /** CSIP-AUS v1.3 storage target, W: above zero discharges, below zero charges (generation positive). */
  opModStorageTargetW?: ScaledPower;
  /** DefaultDERControl's ramp: hundredths of a percent of the rated power per second. */
  setGradW?: number;
}

export interface ScheduleDefault {
  mrid: string;
  programMrid: string;
  primacy: number;
  control: ControlBase;
}

export interface ScheduleEvent extends ScheduleDefault {
  /** ms since 1970 (the utility's time). */
  creationTime: number;
  start: number;
  durationS: number;
  /** GRID_EVENT_STATUSES. */
  status: number;
  /** When the status was set (ms); for a cancellation with randomisation, when it takes effect. */
  statusAt?: number | null;
  randomizeStart?: number | null;
  randomizeDuration?: number | null;
}

export interface ScheduleInput {
  defaults: readonly ScheduleDefault[];
  events: readonly ScheduleEvent[];
  /** Per-site seed (the site's LFDI): the same site draws the same offsets. */
  seed: string;
  /** ms since 1970, the utility's time. */
  now: number;
}

export interface ControlSource {
  kind: "event" | "default";
  mrid: string;
  programMrid: string;
  primacy: number;
}

export interface ActiveControl {
  control: ControlBase;
  source: ControlSource;
}

export interface EffectiveControl {
  /** Null when the site has neither an event in force nor a default. */
  active: ActiveControl | null;
  /** The next moment (ms) the answer changes; null when nothing ahead changes it. */
  until: number | null;
}

/** FNV-1a, 32 bits: a stable hash available in the browser and on the server. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A whole number of seconds between 0 and `bound` (either sign), drawn from the seed. */
export function randomOffsetS(seed: string, mrid: string, which: "start" | "duration", bound: number | null | undefined): number {
  if (!bound) return 0;
  const draw = hash32(`${seed}|${mrid}|${which}`) % (Math.abs(bound) + 1);
  return Math.sign(bound) * draw;
}

/**
 * An event's interval (ms) at this site, its randomisation applied, whatever its status: the
 * schedule and the event's responses (started, completed) keep the same times.
 */
export function randomisedSpan(
  seed: string,
  event: Pick<ScheduleEvent, "mrid" | "start" | "durationS" | "randomizeStart" | "randomizeDuration">,
): { start: number; end: number } {
  const start = event.start + randomOffsetS(seed, event.mrid, "start", event.randomizeStart) * 1000;
  return {
    start,
    end: start + Math.max(0, event.durationS + randomOffsetS(seed, event.mrid, "duration", event.randomizeDuration)) * 1000,
  };
}

/** The interval (ms) during which an event is in force at this site; null when never. */
export function eventSpan(event: ScheduleEvent, seed: string): { start: number; end: number } | null {
  if (event.status === GRID_EVENT_STATUSES.cancelled || event.status === GRID_EVENT_STATUSES.superseded) return null;
  const { start, end: plannedEnd } = randomisedSpan(seed, event);
  let end = plannedEnd;
  if (event.status === GRID_EVENT_STATUSES.cancelledWithRandomization) {
    const delayS = Math.abs(randomOffsetS(seed, event.mrid, "duration", event.randomizeDuration || event.randomizeStart));
    end = Math.min(end, (event.statusAt ?? Number.NEGATIVE_INFINITY) + delayS * 1000);
  }
  return end > start ? { start, end } : null;
}

/** Whether `a` outranks `b`: lower primacy, then newer creation, then larger mRID. */
function outranks(a: ScheduleEvent, b: ScheduleEvent): boolean {
  if (a.primacy !== b.primacy) return a.primacy < b.primacy;
  if (a.creationTime !== b.creationTime) return a.creationTime > b.creationTime;
  return a.mrid > b.mrid;
}

function fallbackOf(defaults: readonly ScheduleDefault[]): ScheduleDefault | null {
  let best: ScheduleDefault | null = null;
  for (const d of defaults) {
    if (!best || d.primacy < best.primacy || (d.primacy === best.primacy && d.programMrid < best.programMrid)) best = d;
  }
  return best;
}

type Spanned = { event: ScheduleEvent; start: number; end: number };

/** The events in force at `t`, the highest-ranked first. */
function inForceAt(spans: readonly Spanned[], t: number): ScheduleEvent[] {
  return spans
    .filter((s) => s.start <= t && t < s.end)
    .map((s) => s.event)
    .sort((a, b) => (outranks(a, b) ? -1 : outranks(b, a) ? 1 : 0));
}

/**
 * Mode by mode (CSIP-AUS): each mode comes from the highest-ranked event in force that sets it,
 * else from the default. An export limit of primacy 2 stays in force beside a generation limit of
 * primacy 1 (GEN-10). The source named is the highest-ranked event.
 */
function answerAt(spans: readonly Spanned[], fallback: ScheduleDefault | null, t: number): ActiveControl | null {
  const events = inForceAt(spans, t);
  const [top] = events;
  if (!top) return fallback && { control: { ...fallback.control }, source: sourceOf("default", fallback) };
  const control: ControlBase = { ...fallback?.control };
  // Lowest-ranked first, so each higher one overrides the modes it sets.
  for (const event of [...events].reverse()) Object.assign(control, event.control);
  return { control, source: sourceOf("event", top) };
}

const sourceOf = (kind: ControlSource["kind"], c: ScheduleDefault): ControlSource => ({
  kind,
  mrid: c.mrid,
  programMrid: c.programMrid,
  primacy: c.primacy,
});

/** Same source and same modes: nothing for a device to change. */
export function sameControl(a: ActiveControl | null, b: ActiveControl | null): boolean {
  if (a === null || b === null) return a === b;
  return a.source.kind === b.source.kind && a.source.mrid === b.source.mrid && canonical(a.control) === canonical(b.control);
}

const canonical = (control: ControlBase) =>
  JSON.stringify(Object.entries(control).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));

/** The site's effective control at `now` and when to look again. */
export function effectiveControl(input: ScheduleInput): EffectiveControl {
  const spans: Spanned[] = [];
  for (const event of input.events) {
    const span = eventSpan(event, input.seed);
    if (span) spans.push({ event, ...span });
  }
  const fallback = fallbackOf(input.defaults);
  const current = answerAt(spans, fallback, input.now);
  // The answer can only change where an event starts or ends; the first such moment ahead where
  // it does change is when the caller must look again.
  const ahead = [...new Set(spans.flatMap((s) => [s.start, s.end]))].filter((t) => t > input.now).sort((a, b) => a - b);
  const until = ahead.find((t) => !sameControl(answerAt(spans, fallback, t), current)) ?? null;
  return { active: current, until };
}
