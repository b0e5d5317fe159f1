import { on, type Procedure } from "@ess/utility-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allStepsComplete } from "./checks.ts";
import { type ProcedureWorld, programWithDefault, runProcedureWorld } from "./procedure-world.ts";

// ALL-05 Client Response to Lack of RegistrationLink: the EndDevices carry no RegistrationLink; the
// client registers in band and carries on to its DER and function set assignments all the same.
const ALL_05: Procedure = {
  start: ["GET-DCAP"],
  steps: {
    "GET-DCAP": { event: on.get("/dcap"), enables: ["GET-EDEV", "GET-TM"] },
    "GET-EDEV": { event: on.get("/edev"), enables: ["POST-EDEV"] },
    "GET-TM": { event: on.get("/tm") },
    "POST-EDEV": { event: on.post("/edev"), enables: ["GET-DER", "GET-FSA"] },
    "GET-FSA": { event: on.get("/edev/*/fsa") },
    "GET-DER": { event: on.get("/edev/*/der") },
  },
};

describe("ALL-05 Client Response to Lack of RegistrationLink", () => {
  let p: ProcedureWorld;
  beforeAll(async () => {
    p = await runProcedureWorld({
      procedure: ALL_05,
      preconditions: [({ control }) => control.setRegistrationLinks(false), programWithDefault({ impW: 0, expW: 0 })],
    });
  });
  afterAll(() => p?.world.close());

  it("completes every step", () => {
    allStepsComplete(p.run, ["GET-DCAP", "GET-EDEV", "GET-TM", "POST-EDEV", "GET-FSA", "GET-DER"]);
  });

  it("never asks for a Registration it was not offered, and raises no PIN alarm", () => {
    expect(p.control.requests({ path: "/edev/*/rg" })).toEqual([]);
    expect(p.world.alarms).toEqual([]);
  });
});
