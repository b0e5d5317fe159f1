import type { ActiveControl, ControlBase } from "@ess/domain";
import type { AppliedControl } from "./control-applier.ts";
import type { DeviceTake } from "./event-responses.ts";
import type { GridLog } from "./grid-context.ts";

/**
 * Hands each site's schedule answers (the grid client's onEffectiveControl hook, which does not
 * wait) to the control applier: one device at a time in the order the answers came, so a control
 * that ends right after it began is applied and then taken back, never the other way round; a
 * device's later answer waits for its earlier one, other devices do not. A failure is logged and
 * the next answer for the device tries again from what was applied. How the device took a control
 * goes back through `took`, so the utility hears of a refusal.
 */
export function createControlDelivery(deps: {
  apply(device: { id: number }, base: ControlBase | null): Promise<AppliedControl>;
  log: GridLog;
}) {
  const chains = new Map<number, Promise<void>>();

  function deliver(siteId: number, deviceId: number, active: ActiveControl | null, took?: (take: DeviceTake) => void): void {
    const previous = chains.get(deviceId) ?? Promise.resolve();
    const next = previous.then(async () => {
      try {
        const applied = await deps.apply({ id: deviceId }, active?.control ?? null);
        if (applied.changed)
          deps.log.info(
            { siteId, deviceId, outcome: applied.outcome, notApplicable: applied.notApplicable.map((n) => n.field) },
            active ? "grid control applied to the device" : "grid control ended on the device",
          );
        if (active) took?.({ outcome: applied.outcome, notApplicable: applied.notApplicable.map((n) => n.field) });
      } catch (error) {
        deps.log.warn({ err: error, siteId, deviceId }, "grid control not applied to the device");
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
  };
}
