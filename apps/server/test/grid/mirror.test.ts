import { penSuffix } from "@ess/domain";
import { derivedMrid } from "@ess/domain/grid/hashed-identity.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitUntil } from "../helpers/reminders.ts";
import { type GridWorld, NMIS, startGridWorld } from "./grid-world.ts";

// Procedures ALL-06 and STO-01 (site and DER mirrors, averaged readings every postRate).
describe("grid client: metering mirror", () => {
  let world: GridWorld;
  beforeAll(async () => {
    world = await startGridWorld({ factor: 60, sites: [{ sn: "MUPSITE01", nmi: NMIS[0], ratedPowerKw: 5 }] });
    // Telemetry every 5 s over the last ten minutes and the next ten: grid alternating 1000/3000 W
    // and 200/600 var (averages 2000 W, 400 var), inverter 4000 W and −500 var, 240 V, 50 % charge.
    const now = world.clock.now();
    for (let t = now - 600_000, i = 0; t < now + 600_000; t += 5_000, i++)
      await world.sample("MUPSITE01", t, {
        grid: i % 2 ? 3000 : 1000,
        gridVar: i % 2 ? 600 : 200,
        inverter: 4000,
        inverterVar: -500,
        voltage: 240,
        soc: 50,
      });
    await waitUntil(() => world.sim.control.readings().length >= 12, 20_000, "two rounds of readings");
  });
  afterAll(() => world?.close());

  it("creates one site and one DER mirror with PEN-suffixed mRIDs and their reading types", () => {
    const mups = world.sim.control.mirrorUsagePoints();
    expect(mups.map((m) => m.mirrorUsagePoint.roleFlags).sort()).toEqual(["03", "49"]);
    const lfdi = world.siteLfdi("MUPSITE01");
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
    const readings = world.sim.control.readings();
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
});
