import { penSuffix } from "@ess/domain";
import { derivedMrid } from "@ess/domain/grid/hashed-identity.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitUntil } from "../helpers/reminders.ts";
import { type GridWorld, NMIS, startGridWorld } from "./grid-world.ts";

// Procedures ALL-06 and STO-01 (site and DER mirrors, averaged readings every postRate).
describe("grid client: metering mirror", () => {
  let world: GridWorld;
  beforeAll(async () => {
    world = await startGridWorld({
      factor: 60,
      sites: [
        { sn: "MUPSITE01", nmi: NMIS[0], ratedPowerKw: 5 },
        { sn: "MUPSITE02", nmi: NMIS[1], ratedPowerKw: 5 },
      ],
    });
    // Telemetry every 5 s over the last ten minutes and the next ten: grid alternating 1000/3000 W
    // and 200/600 var (averages 2000 W, 400 var), inverter 4000 W and −500 var, 240 V, 50 % charge.
    // The second site's device reports no reactive power.
    const now = world.clock.now();
    for (let t = now - 600_000, i = 0; t < now + 600_000; t += 5_000, i++) {
      const sample = { grid: i % 2 ? 3000 : 1000, inverter: 4000, voltage: 240, soc: 50 };
      await world.sample("MUPSITE01", t, { ...sample, gridVar: i % 2 ? 600 : 200, inverterVar: -500 });
      await world.sample("MUPSITE02", t, { ...sample, gridVar: null, inverterVar: null });
    }
    const of = (sn: string) => world.sim.control.readings().filter((r) => r.deviceLFDI === world.siteLfdi(sn)).length;
    await waitUntil(() => of("MUPSITE01") >= 12 && of("MUPSITE02") >= 8, 20_000, "two rounds of readings");
  });
  afterAll(() => world?.close());

  it("creates one site and one DER mirror with PEN-suffixed mRIDs and their reading types", () => {
    const lfdi = world.siteLfdi("MUPSITE01");
    const mups = world.sim.control.mirrorUsagePoints().filter((m) => m.mirrorUsagePoint.deviceLFDI === lfdi);
    expect(mups.map((m) => m.mirrorUsagePoint.roleFlags).sort()).toEqual(["03", "49"]);
    for (const mup of mups) {
      expect(mup.mirrorUsagePoint.deviceLFDI).toBe(lfdi);
      expect(mup.mirrorUsagePoint.mRID.endsWith(penSuffix())).toBe(true);
      for (const stream of mup.mirrorUsagePoint.MirrorMeterReading ?? []) expect(stream.mRID.endsWith(penSuffix())).toBe(true);
    }
    expect(mups.find((m) => m.mirrorUsagePoint.roleFlags === "03")?.mirrorUsagePoint.mRID).toBe(
      derivedMrid([lfdi, "mup", "site"]),
    );
  });

  it("posts interval averages stamped on minute boundaries: site W, var, V; DER W, var, Wh", () => {
    const readings = world.sim.control.readings().filter((r) => r.deviceLFDI === world.siteLfdi("MUPSITE01"));
    const latest = (role: string, uom: number) =>
      readings.filter((r) => r.roleFlags === role && r.readingType?.uom === uom).at(-1)?.reading;
    const siteW = latest("03", 38);
    expect(siteW?.value).toBe(2000);
    expect(siteW?.timePeriod?.duration).toBe(60);
    expect((siteW?.timePeriod?.start ?? 1) % 60).toBe(0);
    expect(latest("03", 63)?.value).toBe(400);
    expect(latest("03", 29)?.value).toBe(240);
    expect(latest("49", 38)?.value).toBe(4000);
    expect(latest("49", 63)?.value).toBe(-500);
    // 50 % of the estimated 5 kW × 2 h battery.
    expect(latest("49", 72)?.value).toBe(5000);
    // Each reading covers a past interval: its end is not after it arrived.
    for (const r of readings)
      expect(((r.reading.timePeriod?.start ?? 0) + (r.reading.timePeriod?.duration ?? 0)) * 1000).toBeLessThanOrEqual(
        r.receivedAt,
      );
  });

  it("posts no var stream for a device that reports no reactive power, and the others as usual", () => {
    const readings = world.sim.control.readings().filter((r) => r.deviceLFDI === world.siteLfdi("MUPSITE02"));
    const units = (role: string) => [...new Set(readings.filter((r) => r.roleFlags === role).map((r) => r.readingType?.uom))];
    expect(units("03").sort()).toEqual([29, 38]);
    expect(units("49").sort()).toEqual([38, 72]);
  });
});
