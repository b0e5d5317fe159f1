import { describe, expect, it } from "vitest";
import type { DeviceControlRow } from "./control-applier.repository.ts";
import { outcomeOf, planControlChange } from "./control-applier.ts";

const empty: DeviceControlRow = {
  device_id: 1,
  applied: null,
  own_values: {},
  own_running: null,
  write_ids: [],
  not_applicable: [],
};
const target = (settings: Record<string, number>, power: "off" | null = null) => ({ settings, power, notApplicable: [] });

describe("planControlChange", () => {
  it("sends the first control in full and keeps the device's own values from before it", () => {
    const plan = planControlChange(empty, target({ a: 16, b: 1 }), { a: 100, b: 0, c: 5 });
    expect(plan.changes).toEqual([
      { key: "a", old: 100, new: 16 },
      { key: "b", old: 0, new: 1 },
    ]);
    expect(plan.command).toBeNull();
    expect(plan.next).toMatchObject({ applied: { settings: { a: 16, b: 1 }, power: null }, own_values: { a: 100, b: 0 } });
  });

  it("sends nothing for the control already applied", () => {
    const row = { ...empty, applied: { settings: { a: 16 }, power: null }, own_values: { a: 100 } };
    const plan = planControlChange(row, target({ a: 16 }), {});
    expect(plan.changes).toEqual([]);
    expect(plan.command).toBeNull();
  });

  it("keeps the own value from before the grid's first write when the control changes, and gives back what it no longer holds", () => {
    const row = { ...empty, applied: { settings: { a: 16, b: 1 }, power: null }, own_values: { a: 100, b: 0 } };
    const plan = planControlChange(row, target({ a: 50 }), { a: 16, b: 1 });
    expect(plan.changes).toEqual([
      { key: "a", old: 16, new: 50 },
      { key: "b", old: 1, new: 0 },
    ]);
    expect(plan.next.own_values).toEqual({ a: 100 });
  });

  it("switches off with the control and on again at its end, giving back every own value it knew", () => {
    const off = planControlChange(empty, target({ a: 10 }, "off"), { a: 25 });
    expect(off.command).toBe(1);
    const row = { ...empty, ...off.next };
    const end = planControlChange(row, null, {});
    expect(end.command).toBe(0);
    expect(end.changes).toEqual([{ key: "a", old: 10, new: 25 }]);
    expect(end.next).toMatchObject({ applied: null, own_values: {} });
  });

  it("leaves a device the owner had switched off as it was when the control that switched it off ends", () => {
    const off = planControlChange(empty, target({}, "off"), {}, false);
    expect(off.command).toBe(1);
    expect(off.next.own_running).toBe(false);
    const end = planControlChange({ ...empty, ...off.next }, null, {});
    expect(end.command).toBeNull();
    expect(end.next.own_running).toBeNull();
  });

  it("leaves a setting whose own value the device never told as the control left it", () => {
    const first = planControlChange(empty, target({ a: 10 }), {});
    expect(first.next.own_values).toEqual({ a: null });
    const end = planControlChange({ ...empty, ...first.next }, null, {});
    expect(end.changes).toEqual([]);
    // Its queued write, if still unsent, is not to reach the device after the control.
    expect(end.blindReleased).toEqual(["a"]);
  });

  it("names only the settings let go of whose own values it never knew as released blind", () => {
    const row = { ...empty, applied: { settings: { a: 16, b: 1, c: 5 }, power: null }, own_values: { a: null, b: 0, c: null } };
    const plan = planControlChange(row, target({ c: 7 }), {});
    expect(plan.blindReleased).toEqual(["a"]);
    expect(plan.changes).toEqual([
      { key: "c", old: 5, new: 7 },
      { key: "b", old: 1, new: 0 },
    ]);
  });
});

describe("outcomeOf", () => {
  it("reports the worst of the writes' states", () => {
    expect(outcomeOf([])).toBe("none");
    expect(outcomeOf(["acknowledged", "acknowledged"])).toBe("acknowledged");
    expect(outcomeOf(["acknowledged", "refused"])).toBe("refused");
    expect(outcomeOf(["timed_out", "acknowledged"])).toBe("timedOut");
    expect(outcomeOf(["queued", "queued"])).toBe("queued");
  });
});
