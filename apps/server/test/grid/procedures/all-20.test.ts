import { on, type Procedure } from "@ess/utility-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allStepsComplete, endDeviceContents, gapsSeconds } from "./checks.ts";
import { type ProcedureWorld, programWithDefault, runProcedureWorld, SITE_SN, setRates } from "./procedure-world.ts";

// ALL-20 Update DER Program Poll Rate: after a minute the DERProgramList pollRate becomes 120 s and
// is kept for ten minutes; at the next read it returns to 60 s and the client follows within 90 s.
const DERP = "/edev/*/fsa/*/derp";
const ALL_20: Procedure = {
  start: ["WAIT-POLL-UPDATE"],
  steps: {
    "WAIT-POLL-UPDATE": {
      event: on.wait(60),
      actions: [setRates({ derpListPoll: 120 })],
      enables: ["GET-DERP-LIST-1", "WAIT-10-MINS"],
    },
    "GET-DERP-LIST-1": { event: on.get(DERP) },
    "WAIT-10-MINS": { event: on.wait(600), enables: ["GET-DERP-LIST-2"] },
    "GET-DERP-LIST-2": {
      event: on.get(DERP),
      actions: [setRates({ derpListPoll: 60 })],
      enables: ["GET-DERP-LIST-3", "WAIT-TEST-END"],
    },
    "GET-DERP-LIST-3": { event: on.get(DERP) },
    "WAIT-TEST-END": { event: on.wait(90), finish: true },
  },
};

describe("ALL-20 Update DER Program Poll Rate", () => {
  let p: ProcedureWorld;
  beforeAll(async () => {
    p = await runProcedureWorld({
      procedure: ALL_20,
      // Not faster: a stall of the loaded machine is multiplied by the factor in server time, and the
      // gaps of the slow period are checked against 110 s.
      factor: 30,
      timeoutMs: 45_000,
      preconditions: [programWithDefault({ impW: 0, expW: 0 })],
    });
  });
  afterAll(() => p?.world.close());

  it("end-device-contents (precondition): the site is registered", () => {
    endDeviceContents(p.control, p.world.siteLfdi(SITE_SN));
  });

  it("completes every step", () => {
    allStepsComplete(p.run, [
      "WAIT-POLL-UPDATE",
      "GET-DERP-LIST-1",
      "WAIT-10-MINS",
      "GET-DERP-LIST-2",
      "GET-DERP-LIST-3",
      "WAIT-TEST-END",
    ]);
  });

  it("keeps the 120 s rate for the ten minutes, then 60 s", () => {
    const at = (step: string) => p.run.completed.find((s) => s.step === step)?.at ?? 0;
    const slow = p.control
      .requests({ method: "GET", path: DERP })
      .filter((r) => r.at >= at("GET-DERP-LIST-1") && r.at <= at("GET-DERP-LIST-2"));
    expect(slow.length).toBeGreaterThanOrEqual(5);
    for (const gap of gapsSeconds(slow)) expect(gap).toBeGreaterThanOrEqual(110);
    const back = (at("GET-DERP-LIST-3") - at("GET-DERP-LIST-2")) / 1000;
    // The procedure's rule: back at the 60 s rate within its final 90 s wait.
    expect(back).toBeGreaterThanOrEqual(50);
    expect(back).toBeLessThanOrEqual(90);
  });
});
