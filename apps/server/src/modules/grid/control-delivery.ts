import type { ActiveControl, ControlBase } from "@ess/domain";
import { type LeaseFence, LeaseLostError } from "../../cluster/job-lease.ts";
import type { AppliedControl, ControlOutcome } from "./control-applier.ts";
import type { DeviceTake } from "./event-responses.ts";
import type { GridLog } from "./grid-context.ts";

/** Outcomes that may still change without a new control: the writes wait for the device or its answer. */
const PENDING = new Set<ControlOutcome>(["queued", "sent", "timedOut"]);
/**
 * How soon a pending take is first looked at again (the device may come back and take the queued
 * writes); each look without news doubles the wait, up to TAKE_RECHECK_MAX_MS, so a fleet of
 * devices offline for hours costs a read per device a minute, not one every few seconds.
 */
export const TAKE_RECHECK_MS = 5000;
const TAKE_RECHECK_MAX_MS = 60_000;

/**
 * Hands each site's schedule answers (the grid client's onEffectiveControl hook, which does not
 * wait) to the control applier: one device at a time in the order the answers came, so a control
 * that ends right after it began is applied and then taken back, never the other way round; a
 * device's later answer waits for its earlier one, other devices do not. A failure is logged and
 * the next answer for the device tries again from what was applied. How the device took a control
 * goes back through `took`, so the utility hears of a refusal; a take still pending (an offline
 * device's queued writes) is looked at again until it settles or the device's control changes, so
 * a device that comes back and takes the control is told as taking part. An answer handed over
 * under a lease (the grid client's) is applied only while that lease holds: a client whose lease
 * was taken over applies nothing more (one warning per lease token, not one per device).
 */
export function createControlDelivery(deps: {
  apply(device: { id: number }, base: ControlBase | null, fence: LeaseFence | null): Promise<AppliedControl>;
  /** How the device stands now with the control last applied (control-applier's controlState). */
  state?(deviceId: number): Promise<{ outcome: ControlOutcome }>;
  log: GridLog;
  recheckMs?: number;
}) {
  const chains = new Map<number, Promise<void>>();
  /** The latest answer handed over per device: a watch of an older one stops. */
  const latest = new Map<number, object>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;
  /** The lease token last found taken over, so its fenced-out answers are told once. */
  let lostToken: number | null = null;

  function watch(
    deviceId: number,
    answer: object,
    take: DeviceTake,
    took: (take: DeviceTake) => void,
    waitMs = deps.recheckMs ?? TAKE_RECHECK_MS,
  ): void {
    if (!deps.state || closed || !PENDING.has(take.outcome)) return;
    const later = Math.min(waitMs * 2, Math.max(waitMs, TAKE_RECHECK_MAX_MS));
    const timer = setTimeout(async () => {
      timers.delete(timer);
      if (latest.get(deviceId) !== answer || closed) return;
      try {
        const now = await deps.state?.(deviceId);
        if (!now || latest.get(deviceId) !== answer) return;
        const next = { ...take, outcome: now.outcome };
        if (now.outcome !== take.outcome) took(next);
        watch(deviceId, answer, next, took, later);
      } catch (error) {
        deps.log.warn({ err: error, deviceId }, "grid control's take not read; looked at again later");
        watch(deviceId, answer, take, took, later);
      }
    }, waitMs);
    timer.unref();
    timers.add(timer);
  }

  function deliver(
    siteId: number,
    deviceId: number,
    active: ActiveControl | null,
    took?: (take: DeviceTake) => void,
    fence: LeaseFence | null = null,
  ): void {
    const answer = {};
    latest.set(deviceId, answer);
    const previous = chains.get(deviceId) ?? Promise.resolve();
    const next = previous.then(async () => {
      try {
        const applied = await deps.apply({ id: deviceId }, active?.control ?? null, fence);
        if (applied.changed)
          deps.log.info(
            { siteId, deviceId, outcome: applied.outcome, notApplicable: applied.notApplicable.map((n) => n.field) },
            active ? "grid control applied to the device" : "grid control ended on the device",
          );
        if (active && took) {
          const take = { outcome: applied.outcome, notApplicable: applied.notApplicable.map((n) => n.field) };
          took(take);
          watch(deviceId, answer, take, took);
        }
      } catch (error) {
        if (!(error instanceof LeaseLostError))
          deps.log.warn({ err: error, siteId, deviceId }, "grid control not applied to the device");
        else if (fence && lostToken !== fence.token) {
          lostToken = fence.token;
          deps.log.warn(
            { ...fence, siteId, deviceId },
            "grid lease taken over by another process: its controls no longer applied here",
          );
        }
      }
    });
    chains.set(deviceId, next);
    void next.then(() => {
      if (chains.get(deviceId) === next) chains.delete(deviceId);
    });
  }

  return {
    deliver,
    /** Resolves once every answer handed over so far has been applied (or has failed). */
    async settled(): Promise<void> {
      while (chains.size > 0) await Promise.all([...chains.values()]);
    },
    /** Stops looking at pending takes, then waits for what is being applied. */
    async close(): Promise<void> {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await this.settled();
    },
  };
}
