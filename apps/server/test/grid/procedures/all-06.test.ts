import { on, type Procedure } from "@ess/utility-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allStepsComplete, pollsAtCorrectTime, READINGS, readingsAtLeast } from "./checks.ts";
import { controlNow, type ProcedureWorld, programWithDefault, runProcedureWorld, telemetry } from "./procedure-world.ts";

// ALL-06 Individual Readings: the client reads the MirrorUsagePointList, creates its mirrors, reads
// the list again; five minutes later a control (import and export limits 0) runs for five minutes;
// three minutes on the procedure ends. Every resource was polled at its 60 s rate throughout.
const ALL_06: Procedure = {
  start: ["GET-MUP"],
  steps: {
    "GET-MUP": { event: on.get("/mup"), enables: ["POST-MUP"] },
    "POST-MUP": { event: on.post("/mup"), enables: ["GET-MUP-2"] },
    "GET-MUP-2": { event: on.get("/mup"), enables: ["SET-CONTROL"] },
    "SET-CONTROL": { event: on.wait(300), actions: [controlNow(300, { impW: 0, expW: 0 })], enables: ["WAIT-CONTROL"] },
    "WAIT-CONTROL": { event: on.wait(180), finish: true },
  },
};

describe("ALL-06 Individual Readings", () => {
  let p: ProcedureWorld;
  beforeAll(async () => {
    p = await runProcedureWorld({
      procedure: ALL_06,
      preconditions: [programWithDefault({ impW: 200_000, expW: 200_000 })],
      during: (world) => telemetry(world, 20),
    });
  });
  afterAll(() => p?.world.close());

  it("completes every step", () => {
    allStepsComplete(p.run, ["GET-MUP", "POST-MUP", "GET-MUP-2", "SET-CONTROL", "WAIT-CONTROL"]);
  });

  it("readings-*: at least six of each site and DER quantity", () => {
    for (const which of Object.values(READINGS)) readingsAtLeast(p.control, which, 6);
    const siteW = p.control.readings().filter((r) => r.roleFlags === READINGS.siteActivePower.role && r.readingType?.uom === 38);
    expect(siteW.at(-1)?.reading.value).toBe(1000);
  });

  it("all-polls-at-correct-time: each resource polled every 60 s, neither missed nor repeated", () => {
    pollsAtCorrectTime(p.control.requests(), {
      endpoints: ["/dcap", "/edev", "/edev/*/fsa", "/edev/*/der", "/edev/*/fsa/*/derp", "/edev/*/derp/*/dderc", "/mup"],
      method: "GET",
      intervalSeconds: 60,
      startedAt: p.run.startedAt,
    });
  });
});
