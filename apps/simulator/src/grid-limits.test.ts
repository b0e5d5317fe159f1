import { describe, expect, it } from "vitest";
import { DeviceBrain } from "./device-brain.ts";
import type { PlantSpec, PlantState } from "./plant.ts";
import { siteById } from "./sites.ts";

/**
 * The limits a utility's control is turned into (domain control-mappings) act on the physics:
 * what is measured at the meter and the battery stays within them, not only the register value.
 */
const spec = (product: "single" | "three"): PlantSpec => ({
  sn: "G1",
  product,
  site: siteById("rome"),
  ratedW: product === "three" ? 12_000 : 6000,
  pvKwp: product === "three" ? 14 : 7,
  batteryModules: product === "three" ? 8 : 3,
  cellAh: 50,
  generatorW: null,
  household: { size: 1, baseW: 300 },
  seed: 5,
});
const MIN = 60_000;
const NOON = Date.parse("2026-06-21T09:30:00Z");
const NIGHT = Date.parse("2026-06-21T21:00:00Z");

function device(product: "single" | "three", at: number, soc: number) {
  const brain = new DeviceBrain(spec(product), at, { faultsPerDay: 0 });
  brain.plant.state.soc = soc;
  return brain;
}
/** Lives `hours` a minute at a time; answers the states seen. */
function live(brain: DeviceBrain, from: number, hours: number): PlantState[] {
  const seen: PlantState[] = [];
  for (let t = from + MIN; t <= from + hours * 3_600_000; t += MIN) {
    brain.tick(t);
    seen.push({ ...brain.plant.state });
  }
  return seen;
}
const set = (brain: DeviceBrain, values: Record<string, number>) =>
  brain.write(
    Object.entries(values).map(([key, raw]) => ({ key, raw })),
    false,
    Date.now(),
  ).ack;
const mostExported = (states: PlantState[]) => Math.max(...states.map((s) => -s.gridW));

describe("a simulated device under a grid control", () => {
  it("three-phase: exports at most the anti-backflow percentage once anti-backflow mode is on", () => {
    const free = device("three", NOON, 100);
    expect(mostExported(live(free, NOON, 1))).toBeGreaterThan(4000);

    const limited = device("three", NOON, 100);
    // 16 % of 12 kW: a 1.92 kW export limit.
    expect(set(limited, { TP_0X03_1039: 1, TP_0X03_1028: 16 })).toEqual({ ok: true });
    const states = live(limited, NOON, 1);
    expect(mostExported(states)).toBeLessThanOrEqual(1920);
    expect(mostExported(states)).toBeGreaterThan(1800);
  });

  it("three-phase: holds no export limit in grid-connection mode, whatever the percentage", () => {
    const brain = device("three", NOON, 100);
    set(brain, { TP_0X03_1039: 0, TP_0X03_1028: 10 });
    expect(mostExported(live(brain, NOON, 1))).toBeGreaterThan(4000);
  });

  it("single-phase: exports at most the anti-backflow percentage, zero included", () => {
    const brain = device("single", NOON, 100);
    set(brain, { antiBackflowPowerPercentage: 25 });
    expect(mostExported(live(brain, NOON, 1))).toBeLessThanOrEqual(1500);
    set(brain, { antiBackflowPowerPercentage: 0 });
    expect(mostExported(live(brain, NOON + 3_600_000, 1))).toBeLessThanOrEqual(0);
  });

  it("caps the inverter's output (PV and discharge) at the maximum output percentage", () => {
    for (const [product, key] of [
      ["three", "TP_0X03_1029"],
      ["single", "maximumOutputPowerPercentage"],
    ] as const) {
      const brain = device(product, NOON, 100);
      set(brain, { [key]: 10 });
      const cap = spec(product).ratedW / 10;
      const states = live(brain, NOON, 1);
      expect(Math.max(...states.map((s) => s.pvW + s.batteryW))).toBeLessThanOrEqual(cap + 1);
    }
  });

  it("charges from the grid no faster than the charge current allows, so the import stays within house load plus the limit", () => {
    for (const [product, current, mode] of [
      ["three", "TP_0X03_1048", "TP_0X03_72"],
      ["single", "batteryChargingCurrent", "systemModeSet"],
    ] as const) {
      const unlimited = device(product, NIGHT, 40);
      set(unlimited, { [mode]: 4 });
      const fast = live(unlimited, NIGHT, 1);
      const limited = device(product, NIGHT, 40);
      set(limited, { [mode]: 4, [current]: 2 });
      const slow = live(limited, NIGHT, 1);
      const limitW = 2 * limited.plant.batteryVoltage() * 1.05;
      expect(Math.max(...fast.map((s) => -s.batteryW))).toBeGreaterThan(limitW);
      for (const s of slow) {
        expect(-s.batteryW).toBeLessThanOrEqual(limitW);
        expect(s.gridW).toBeLessThanOrEqual(s.loadW + limitW);
      }
    }
  });

  it("discharges no faster than the discharge current allows", () => {
    const brain = device("single", NIGHT, 90);
    set(brain, { batteryDischargeCurrent: 1 });
    const states = live(brain, NIGHT, 1);
    const limitW = brain.plant.batteryVoltage() * 1.05;
    expect(Math.max(...states.map((s) => s.loadW))).toBeGreaterThan(limitW);
    for (const s of states) expect(s.batteryW).toBeLessThanOrEqual(limitW);
  });

  it("feeds the grid from the battery in full power feed mode, at the discharge current and within the export limit", () => {
    for (const [product, keys] of [
      ["three", { scheduleType: "TP_0X03_71", mode: "TP_0X03_72", dischargeA: "TP_0X03_1049" }],
      ["single", { scheduleType: "timingModeType", mode: "systemModeSet", dischargeA: "batteryDischargeCurrent" }],
    ] as const) {
      const targetW = spec(product).ratedW / 2;
      const feed = (soc: number) => {
        const brain = device(product, NIGHT, soc);
        // The current register counts 0.1 A: raw tenths of an ampere, rounded down.
        const tenths = Math.floor((targetW / brain.plant.batteryVoltage()) * 10);
        set(brain, { [keys.scheduleType]: 2, [keys.mode]: 3, [keys.dischargeA]: tenths });
        return brain;
      };
      // No export limit: the battery gives the target; the house takes its share, the rest is exported.
      const free = live(feed(90), NIGHT, 1);
      for (const s of free) {
        expect(s.batteryW).toBeGreaterThan(targetW * 0.95);
        expect(s.batteryW).toBeLessThanOrEqual(targetW * 1.02);
        expect(-s.gridW).toBeCloseTo(s.batteryW - s.loadW, -1);
      }
      // Anti-backflow on at a quarter of the rating: what the meter measures stays under it.
      const limited = feed(90);
      const limitW = spec(product).ratedW / 4;
      set(limited, product === "three" ? { TP_0X03_1039: 1, TP_0X03_1028: 25 } : { antiBackflowPowerPercentage: 25 });
      const held = live(limited, NIGHT, 1);
      expect(mostExported(held)).toBeLessThanOrEqual(limitW);
      expect(mostExported(held)).toBeGreaterThan(limitW * 0.9);
      // Down to the cut-off SOC (20 %), then the battery rests and the house buys.
      const low = live(feed(21), NIGHT, 3);
      expect(low.at(-1)?.batteryW).toBe(0);
      expect(Math.min(...low.map((s) => s.soc))).toBeGreaterThan(19.5);
    }
  });

  it("puts out nothing once powered off, and produces again once powered on", () => {
    const brain = device("three", NOON, 50);
    expect(brain.command(1, false, NOON).ack.ok).toBe(true);
    const off = live(brain, NOON, 1);
    for (const s of off) {
      expect(s.pvW).toBe(0);
      expect(s.batteryW).toBe(0);
      expect(s.gridW).toBeGreaterThanOrEqual(0);
    }
    brain.command(0, false, NOON + 3_600_000);
    expect(Math.max(...live(brain, NOON + 3_600_000, 1).map((s) => s.pvW))).toBeGreaterThan(2000);
  });
});
