import { checkFrame, decodeFrame, encodeFrame, keyQuantities } from "@ess/contracts";
import { CATALOGUE_PAGES, KEY_QUANTITIES } from "@ess/domain";
import { describe, expect, it } from "vitest";
import { DeviceBrain } from "./device-brain.ts";
import { plantSpecOf } from "./fleet-spec.ts";

describe("what simulated devices send", () => {
  it.each([
    ["single", 0],
    ["three", 1],
  ])("%s-phase frames and page answers hold only values the catalogue accepts, all day", (product, index) => {
    const spec = plantSpecOf("SIM1", index as number, 5);
    expect(spec.product).toBe(product);
    const start = Date.parse("2026-07-01T00:00:00Z");
    const brain = new DeviceBrain(spec, start, { faultsPerDay: 50 });
    for (let t = start; t < start + 86_400_000; t += 30 * 60_000) {
      brain.tick(t);
      const frame = decodeFrame(
        encodeFrame({ kind: "telemetry", ts: t, seq: 1, requestId: 0, page: 0, flags: 0 }, brain.telemetryBlocks()),
      );
      expect(checkFrame(frame), new Date(t).toISOString()).toMatchObject({ invalid: [], unknown: 0 });
    }
    for (const { page } of CATALOGUE_PAGES.filter((p) => p.product === product)) {
      const blocks = brain.pageBlocks(page) ?? [];
      const answer = decodeFrame(encodeFrame({ kind: "page", ts: start, seq: 1, requestId: 1, page, flags: 0 }, blocks));
      expect(checkFrame(answer).invalid, `page ${page}`).toEqual([]);
    }
  });

  it.each([
    ["single", 0],
    ["three", 1],
  ] as const)("%s-phase frames report reactive power: the load's var from the inverter and the grid", (product, index) => {
    const at = (column: string) => KEY_QUANTITIES.findIndex((k) => k.column === column);
    const start = Date.parse("2026-07-01T00:00:00Z");
    const brain = new DeviceBrain(plantSpecOf("SIM1", index, 5), start, { faultsPerDay: 0 });
    for (let t = start; t < start + 86_400_000; t += 60 * 60_000) {
      brain.tick(t);
      const frame = decodeFrame(
        encodeFrame({ kind: "telemetry", ts: t, seq: 1, requestId: 0, page: 0, flags: 0 }, brain.telemetryBlocks()),
      );
      const kq = keyQuantities(frame, product);
      const [gridVar, inverterVar, loadW] = [
        kq[at("grid_reactive_power")],
        kq[at("inverter_reactive_power")],
        kq[at("load_power")],
      ];
      expect(inverterVar, new Date(t).toISOString()).toBeGreaterThanOrEqual(0);
      // The load draws about a fifth of its power as var; the two sources add up to it.
      expect((gridVar ?? 0) + (inverterVar ?? 0), new Date(t).toISOString()).toBeCloseTo((loadW ?? 0) * 0.203, -1);
    }
  });
});
