import { describe, expect, it } from "vitest";
import { DeviceBrain } from "./device-brain.ts";
import { dispatch } from "./dispatch.ts";
import { localTime } from "./local-time.ts";
import { Plant, type PlantSettings, type PlantSpec } from "./plant.ts";
import { siteById } from "./sites.ts";
import { sunElevation } from "./solar.ts";

const spec = (product: "single" | "three", siteId = "rome"): PlantSpec => ({
  sn: "T1",
  product,
  site: siteById(siteId),
  ratedW: product === "three" ? 12_000 : 6000,
  pvKwp: product === "three" ? 14 : 7,
  batteryModules: product === "three" ? 8 : 3,
  cellAh: 50,
  generatorW: null,
  household: { size: 1, baseW: 300 },
  seed: 3,
});
const settings: PlantSettings = {
  running: true,
  mode: 1,
  hourlyModes: null,
  socMin: 20,
  offGridSocMin: 10,
  chargeCurrentA: 25,
  dischargeCurrentA: 25,
  exportLimitPct: 100,
  maxOutputPct: 100,
};
const MIN = 60_000;

/** Runs a plant from `start` for `hours`, one step a minute; returns the states seen. */
function run(plant: Plant, start: number, hours: number, s = settings) {
  const seen = [];
  for (let t = start; t < start + hours * 60 * MIN; t += MIN) seen.push({ ...plant.step(t, s), today: { ...plant.state.today } });
  return seen;
}

describe("the sun and the panels", () => {
  it("puts the sun high at noon in Rome in June and below the horizon at midnight", () => {
    expect(sunElevation(41.9, 12.5, Date.parse("2026-06-21T11:00:00Z"))).toBeGreaterThan(65);
    expect(sunElevation(41.9, 12.5, Date.parse("2026-06-21T23:00:00Z"))).toBeLessThan(0);
  });

  it("makes PV by day and none by night, within the array's size", () => {
    const plant = new Plant(spec("single"), Date.parse("2026-06-20T22:00:00Z"));
    const states = run(plant, Date.parse("2026-06-20T22:00:00Z"), 24);
    const at = (utcHour: number) => states.filter((s) => new Date(s.at).getUTCHours() === utcHour);
    expect(Math.max(...at(0).map((s) => s.pvW))).toBe(0);
    expect(Math.max(...at(10).map((s) => s.pvW))).toBeGreaterThan(1500);
    expect(Math.max(...states.map((s) => s.pvW))).toBeLessThanOrEqual(6600);
  });
});

describe("where the power goes", () => {
  const base = { pvW: 5000, loadW: 1000, soc: 50, socMin: 20, maxChargeW: 3000, maxDischargeW: 3000, exportLimitW: 6000 };
  it("follows the system mode", () => {
    expect(dispatch({ ...base, mode: 1 })).toEqual({ pvW: 5000, loadW: 1000, batteryW: -3000, gridW: -1000 });
    // Full power feed: PV and the battery at its full discharge, the export limit curtailing PV first.
    expect(dispatch({ ...base, mode: 3 })).toEqual({ pvW: 4000, loadW: 1000, batteryW: 3000, gridW: -6000 });
    expect(dispatch({ ...base, mode: 3, pvW: 0, exportLimitW: 1500 })).toEqual({
      pvW: 0,
      loadW: 1000,
      batteryW: 2500,
      gridW: -1500,
    });
    expect(dispatch({ ...base, mode: 3, pvW: 0, soc: 20 })).toMatchObject({ batteryW: 0, gridW: 1000 });
    expect(dispatch({ ...base, mode: 6 })).toMatchObject({ batteryW: 0, gridW: -4000 });
    expect(dispatch({ ...base, mode: 1, pvW: 0 })).toMatchObject({ batteryW: 1000, gridW: 0 });
    expect(dispatch({ ...base, mode: 1, pvW: 0, soc: 20 })).toMatchObject({ batteryW: 0, gridW: 1000 });
    expect(dispatch({ ...base, mode: 4, pvW: 0 })).toMatchObject({ batteryW: -1500, gridW: 2500 });
    expect(dispatch({ ...base, mode: 7, pvW: 0, loadW: 5000 })).toEqual({ pvW: 0, loadW: 3000, batteryW: 3000, gridW: 0 });
    expect(dispatch({ ...base, mode: 2, exportLimitW: 1500 })).toEqual({ pvW: 2500, loadW: 1000, batteryW: 0, gridW: -1500 });
  });

  it("charges the battery from the midday surplus and keeps energy counters that add up", () => {
    const plant = new Plant(spec("three"), Date.parse("2026-06-21T04:00:00Z"));
    const socAtDawn = plant.state.soc;
    const states = run(plant, Date.parse("2026-06-21T04:00:00Z"), 10);
    expect(Math.max(...states.map((s) => s.soc))).toBeGreaterThan(socAtDawn);
    const t = plant.state.today;
    // Energy balance: what came in (PV, grid, battery) is what went out (house, grid, battery).
    expect(t.pv + t.buy + t.discharge).toBeCloseTo(t.load + t.sell + t.charge, 0);
  });

  it("restarts the daily counters at local midnight, also on a 23-hour day", () => {
    const plant = new Plant(spec("single"), Date.parse("2026-03-28T12:00:00Z"));
    const states = run(plant, Date.parse("2026-03-28T12:00:00Z"), 48);
    const dayChanges = states.filter((s, i) => i > 0 && s.local.day !== states[i - 1]?.local.day);
    expect(dayChanges.map((s) => localTime(s.at, "Europe/Rome").hour)).toEqual([0, 0]);
    for (const s of dayChanges) expect(s.today.load).toBeLessThan(0.2);
  });
});

describe("the device's rules", () => {
  it("refuses settings that need standby while running, and takes them once powered off", () => {
    const brain = new DeviceBrain(spec("three"), Date.now(), { faultsPerDay: 0 });
    expect(brain.write([{ key: "TP_0X03_1024", raw: 2 }], false, Date.now()).ack).toEqual({
      ok: false,
      code: "needsStandby",
      key: "TP_0X03_1024",
    });
    expect(brain.write([{ key: "TP_0X03_72", raw: 4 }], true, Date.now()).ack).toEqual({ ok: false, code: "busy" });
    expect(brain.write([{ key: "countryCode", raw: 2 }], false, Date.now()).ack).toEqual({
      ok: false,
      code: "unknownKey",
      key: "countryCode",
    });
    expect(brain.command(1, false, Date.now()).ack.ok).toBe(true);
    expect(brain.write([{ key: "TP_0X03_1024", raw: 2 }], false, Date.now()).ack.ok).toBe(true);
    expect(brain.settings.TP_0X03_1024).toBe(2);
    expect(brain.command(5, false, Date.now()).ack.ok).toBe(true); // factory reset in standby
    expect(brain.settings.TP_0X03_1024).toBe(1);
  });

  it("answers only the pages of its own model", () => {
    const single = new DeviceBrain(spec("single"), Date.now(), { faultsPerDay: 0 });
    expect(single.pageBlocks(8)?.length).toBeGreaterThan(0);
    expect(single.pageBlocks(41)).toBeNull();
  });

  it("raises and clears alarms at the configured rate", () => {
    const brain = new DeviceBrain(spec("three"), Date.parse("2026-01-01T00:00:00Z"), { faultsPerDay: 24 });
    const events = [];
    for (let t = Date.parse("2026-01-01T00:00:00Z"); t < Date.parse("2026-01-03T00:00:00Z"); t += MIN)
      events.push(...brain.tick(t));
    const occurred = events.filter((e) => e.state === "occur").length;
    expect(occurred).toBeGreaterThan(20);
    expect(occurred).toBeLessThan(60);
    expect(events.filter((e) => e.state === "disappear").length).toBeGreaterThanOrEqual(occurred - 5);
  });
});
