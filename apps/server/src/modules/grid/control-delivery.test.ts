import type { ActiveControl, ControlBase } from "@ess/domain";
import { describe, expect, it } from "vitest";
import type { AppliedControl, ControlOutcome } from "./control-applier.ts";
import { createControlDelivery } from "./control-delivery.ts";

const silent = { info() {}, warn() {}, error() {} };
const limit = (w: number): ActiveControl => ({
  control: { opModExpLimW: { value: w, multiplier: 0 } },
  source: { kind: "event", mrid: `E${w}`, programMrid: "P", primacy: 0 },
});
const done: AppliedControl = { changed: true, outcome: "acknowledged", writes: [], notApplicable: [] };
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("control delivery", () => {
  it("applies a device's answers one after the other, in the order they came, while other devices go on", async () => {
    const log: string[] = [];
    const release: (() => void)[] = [];
    const delivery = createControlDelivery({
      log: silent,
      apply: async (device, base: ControlBase | null) => {
        log.push(`start ${device.id}:${base?.opModExpLimW?.value ?? "end"}`);
        if (device.id === 1) await new Promise<void>((resolve) => release.push(resolve));
        log.push(`done ${device.id}:${base?.opModExpLimW?.value ?? "end"}`);
        return done;
      },
    });
    delivery.deliver(10, 1, limit(2000));
    delivery.deliver(10, 1, null);
    delivery.deliver(20, 2, limit(500));
    await tick();
    // Device 1's end waits for its limit; device 2 does not wait for device 1.
    expect(log).toEqual(["start 1:2000", "start 2:500", "done 2:500"]);
    release.shift()?.();
    await tick();
    release.shift()?.();
    await delivery.settled();
    expect(log).toEqual(["start 1:2000", "start 2:500", "done 2:500", "done 1:2000", "start 1:end", "done 1:end"]);
  });

  it("logs a failed application and carries on with the device's next answer", async () => {
    const warnings: object[] = [];
    const applied: (number | null)[] = [];
    const delivery = createControlDelivery({
      log: { ...silent, warn: (object) => void warnings.push(object) },
      apply: async (_device, base) => {
        if (base?.opModExpLimW?.value === 1) throw new Error("device gone");
        applied.push(base?.opModExpLimW?.value ?? null);
        return done;
      },
    });
    delivery.deliver(10, 1, limit(1));
    delivery.deliver(10, 1, limit(3000));
    await delivery.settled();
    expect(applied).toEqual([3000]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ siteId: 10, deviceId: 1 });
  });
});

describe("control delivery's report of the device's take", () => {
  it("tells how the device took an active control, and nothing for a control's end", async () => {
    const takes: unknown[] = [];
    const delivery = createControlDelivery({
      log: silent,
      apply: async (_device, base) =>
        base
          ? { ...done, outcome: "refused", notApplicable: [{ field: "opModStorageTargetW", reason: "batteryVoltageUnknown" }] }
          : done,
    });
    delivery.deliver(10, 1, limit(2000), (take) => takes.push(take));
    delivery.deliver(10, 1, null, (take) => takes.push(take));
    await delivery.settled();
    expect(takes).toEqual([{ outcome: "refused", notApplicable: ["opModStorageTargetW"] }]);
  });
});

describe("control delivery's watch of a pending take", () => {
  it("tells again once an offline device takes the queued control, and stops watching at the device's next answer", async () => {
    const takes: string[] = [];
    let now: ControlOutcome = "queued";
    let reads = 0;
    const delivery = createControlDelivery({
      log: silent,
      recheckMs: 5,
      apply: async (_device, base) => ({ ...done, outcome: base ? "queued" : "acknowledged" }),
      state: async () => {
        reads++;
        return { outcome: now };
      },
    });
    delivery.deliver(10, 1, limit(2000), (take) => takes.push(take.outcome));
    await delivery.settled();
    await tick();
    expect(takes).toEqual(["queued"]);
    now = "acknowledged";
    await waitFor(() => takes.length === 2);
    expect(takes).toEqual(["queued", "acknowledged"]);
    // Settled: no more reads.
    const after = reads;
    await tick();
    expect(reads).toBe(after);

    // A newer answer (the control ended) stops the watch of the older one.
    now = "queued";
    delivery.deliver(10, 1, limit(1000), (take) => takes.push(`second ${take.outcome}`));
    await delivery.settled();
    delivery.deliver(10, 1, null);
    await delivery.settled();
    now = "acknowledged";
    await tick();
    await tick();
    expect(takes).toEqual(["queued", "acknowledged", "second queued"]);
    await delivery.close();
  });
});

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await tick();
}
