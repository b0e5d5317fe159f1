import { on, type Procedure } from "@ess/utility-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allStepsComplete, endDeviceContents, readingsAtLeast, STORED_ENERGY } from "./checks.ts";
import { type ProcedureWorld, programWithDefault, runProcedureWorld, SITE_SN, telemetry } from "./procedure-world.ts";

// STO-01 Individual readings - storage: the client lists and creates its mirrors, lists them again,
// and in the five minutes after posts at least four readings of the battery's stored energy.
const STO_01: Procedure = {
  start: ["GET-MUP"],
  steps: {
    "GET-MUP": { event: on.get("/mup"), enables: ["POST-MUP"] },
    "POST-MUP": { event: on.post("/mup"), enables: ["GET-MUP-2"] },
    "GET-MUP-2": { event: on.get("/mup"), enables: ["WAIT-READINGS"] },
    "WAIT-READINGS": { event: on.wait(300), finish: true },
  },
};

describe("STO-01 Individual readings - storage", () => {
  let p: ProcedureWorld;
  beforeAll(async () => {
    p = await runProcedureWorld({
      procedure: STO_01,
      timeoutMs: 25_000,
      preconditions: [programWithDefault({ impW: 0, expW: 0 })],
      during: (world) => telemetry(world, 12),
    });
  }, 40_000);
  afterAll(() => p?.world.close());

  it("end-device-contents (precondition): the site is registered", () => {
    endDeviceContents(p.control, p.world.siteLfdi(SITE_SN));
  });

  it("completes every step", () => {
    allStepsComplete(p.run, Object.keys(STO_01.steps));
  });

  it("readings-der-stored-energy: at least four, in Wh, half the battery's estimated capacity", () => {
    const stored = readingsAtLeast(p.control, STORED_ENERGY, 4);
    // Telemetry says 50 % charged; the battery is estimated at two hours of the rated power.
    const device = p.control.endDevices()[0];
    const capacity = device?.der.settings?.setMaxWh;
    expect(capacity).toBeDefined();
    const wh = (capacity?.value ?? 0) * 10 ** (capacity?.multiplier ?? 0);
    for (const r of stored) {
      const pow = r.readingType?.powerOfTenMultiplier ?? 0;
      expect((r.reading.value ?? Number.NaN) * 10 ** pow).toBeCloseTo(wh / 2, -1);
    }
  });
});
