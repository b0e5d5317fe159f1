import { on, type Procedure } from "@ess/utility-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allStepsComplete, endDeviceContents } from "./checks.ts";
import { type ProcedureWorld, programWithDefault, RATES_60, runProcedureWorld, SITE_SN, setRates } from "./procedure-world.ts";

// ALL-19 Update Function Set Assignments Poll Rate: the FSA list is polled every 300 s; at a read its
// pollRate becomes 60 s and the client must read it again within the next 120 s.
const ALL_19: Procedure = {
  start: ["GET-FSA-LIST"],
  steps: {
    "GET-FSA-LIST": {
      event: on.get("/edev/*/fsa"),
      actions: [setRates({ fsaListPoll: 60 })],
      enables: ["GET-FSA-LIST-AGAIN", "WAIT-TEST-END"],
    },
    "GET-FSA-LIST-AGAIN": { event: on.get("/edev/*/fsa") },
    "WAIT-TEST-END": { event: on.wait(120), finish: true },
  },
};

describe("ALL-19 Update Function Set Assignments Poll Rate", () => {
  let p: ProcedureWorld;
  beforeAll(async () => {
    p = await runProcedureWorld({
      procedure: ALL_19,
      rates: { ...RATES_60, fsaListPoll: 300 },
      // Slower than the default: a stall of the loaded machine is multiplied by the factor.
      factor: 30,
      timeoutMs: 30_000,
      preconditions: [programWithDefault({ impW: 0, expW: 0 })],
    });
  });
  afterAll(() => p?.world.close());

  it("end-device-contents (precondition): the site is registered", () => {
    endDeviceContents(p.control, p.world.siteLfdi(SITE_SN));
  });

  it("completes every step: the list read again within 120 s of the new rate", () => {
    allStepsComplete(p.run, ["GET-FSA-LIST", "GET-FSA-LIST-AGAIN", "WAIT-TEST-END"]);
    const [first, again] = [p.run.completed[0]?.at ?? 0, p.run.completed[1]?.at ?? 0];
    // At the new 60 s rate, and within the procedure's 120 s.
    expect((again - first) / 1000).toBeGreaterThanOrEqual(50);
    expect((again - first) / 1000).toBeLessThanOrEqual(120);
  });
});
