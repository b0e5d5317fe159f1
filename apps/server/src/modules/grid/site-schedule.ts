import { type ActiveControl, effectiveControl, type ScheduleDefault, type ScheduleEvent, sameControl } from "@ess/domain";
import type { LeaseFence } from "../../cluster/job-lease.ts";
import type { DeviceTake } from "./event-responses.ts";
import type { GridRepository, ScheduledSite } from "./grid.repository.ts";
import type { GridClock, GridLog } from "./grid-context.ts";

/**
 * Each registered site's control schedule, run from the controls stored in the database rather
 * than from the utility: worked out again when a program poll stored something new and when the
 * answer's `until` comes, and kept on the site (grid_site.active_*). A console started while the
 * utility is unreachable, or cut off later, carries on with what it stored: events start and end
 * on time and the default takes over after them (CSIP-AUS ALL-23).
 */

/**
 * Called with a site's control in force (null: none) once when its schedule starts and then each
 * time it changes; applying it to the device is the hook's business, and `took` (when given) is
 * where it tells how the device took it, for the utility's responses; `fence` (when given) is the
 * lease the client runs under, which the device's writes must hold by. Must not throw or block.
 */
export type EffectiveControlHook = (
  siteId: number,
  deviceId: number,
  active: ActiveControl | null,
  took?: (take: DeviceTake) => void,
  fence?: LeaseFence | null,
) => void;

export interface SiteSchedules {
  /** Runs the site's schedule unless it runs already. */
  ensure(site: ScheduledSite): void;
  /** The site's stored controls changed: read them and work the schedule out again now. */
  changed(siteId: number): void;
  /** Stops the site's schedule (the device no longer takes part, or is refused): nothing is in force there any more. */
  stop(siteId: number): void;
  /** Resolves once every schedule has stopped (the signal given at creation aborted). */
  closed(): Promise<void>;
}

interface Running {
  site: ScheduledSite;
  inputs?: { defaults: ScheduleDefault[]; events: ScheduleEvent[] };
  stale: boolean;
  until: number | null | undefined;
  announced: boolean;
  wake?: AbortController;
  stop: AbortController;
}

/** Longest sleep with nothing ahead: changes wake the schedule anyway; this only bounds a missed one. */
const IDLE_MS = 3_600_000;
const RETRY_MS = 5_000;
/** A little past the boundary, so the answer at `until` is the new one. */
const PAST_MS = 20;

export function createSiteSchedules(options: {
  repo: GridRepository;
  clock: GridClock;
  /** The utility's time (ms), which event times are on. */
  serverNow: () => number;
  log: GridLog;
  onEffectiveControl?: EffectiveControlHook;
  signal: AbortSignal;
}): SiteSchedules {
  const running = new Map<number, Running>();
  const loops: Promise<void>[] = [];

  function tell(site: ScheduledSite, active: ActiveControl | null): void {
    try {
      options.onEffectiveControl?.(site.siteId, site.deviceId, active);
    } catch (error) {
      options.log.warn({ err: error, siteId: site.siteId }, "grid: effective control hook failed");
    }
  }

  async function step(state: Running): Promise<number> {
    const { site } = state;
    if (!state.inputs || state.stale) {
      state.stale = false;
      state.inputs = await options.repo.scheduleInputs(site.siteId, new Date(options.serverNow()));
    }
    const now = options.serverNow();
    const answer = effectiveControl({ ...state.inputs, seed: site.lfdi, now });
    const changed = !sameControl(answer.active, site.active);
    if (changed || answer.until !== state.until) {
      const since = changed || !site.since ? new Date(now) : site.since;
      await options.repo.saveActive(site.siteId, answer.active, since, answer.until === null ? null : new Date(answer.until));
      site.since = since;
    }
    site.active = answer.active;
    state.until = answer.until;
    if (changed || !state.announced) {
      state.announced = true;
      tell(site, answer.active);
    }
    return answer.until === null ? IDLE_MS : Math.min(IDLE_MS, Math.max(0, answer.until - now) + PAST_MS);
  }

  async function run(state: Running): Promise<void> {
    const signal = AbortSignal.any([options.signal, state.stop.signal]);
    while (!signal.aborted) {
      let wait = RETRY_MS;
      try {
        wait = await step(state);
      } catch (error) {
        if (signal.aborted) return;
        // The stored answer stays as it was; tried again shortly.
        options.log.warn({ err: error, siteId: state.site.siteId }, "grid: control schedule not worked out");
      }
      if (state.stale) continue;
      state.wake = new AbortController();
      try {
        await options.clock.sleep(wait, AbortSignal.any([signal, state.wake.signal]));
      } catch {
        if (signal.aborted) return;
      }
    }
  }

  return {
    ensure(site) {
      if (running.has(site.siteId) || options.signal.aborted) return;
      // What was stored is not written again unless it changes (a restart of many sites costs reads only).
      const state: Running = { site, stale: true, until: site.until, announced: false, stop: new AbortController() };
      running.set(site.siteId, state);
      loops.push(run(state));
    },
    changed(siteId) {
      const state = running.get(siteId);
      if (!state) return;
      state.stale = true;
      state.wake?.abort();
    },
    stop(siteId) {
      const state = running.get(siteId);
      if (!state) return;
      state.stop.abort();
      running.delete(siteId);
      const { site } = state;
      if (!site.active) return;
      site.active = null;
      tell(site, null);
      options.repo.saveActive(site.siteId, null, new Date(options.serverNow()), null).catch((error) => {
        if (!options.signal.aborted) options.log.warn({ err: error, siteId }, "grid: control schedule not stored");
      });
    },
    async closed() {
      await Promise.allSettled(loops);
    },
  };
}
