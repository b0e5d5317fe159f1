import { penSuffix } from "@ess/domain";
import { on, type Procedure } from "@ess/utility-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allStepsComplete, endDeviceContents } from "./checks.ts";
import { type ProcedureWorld, programWithDefault, runProcedureWorld, SITE_NMI, SITE_SN } from "./procedure-world.ts";

// ALL-03 Connection Point registration: after the POST of the EndDevice the client PUTs its
// ConnectionPoint with the site's NMI.
const ALL_03: Procedure = {
  start: ["GET-DCAP"],
  steps: {
    "GET-DCAP": { event: on.get("/dcap"), enables: ["GET-EDEV", "GET-TM"] },
    "GET-EDEV": { event: on.get("/edev"), enables: ["POST-EDEV"] },
    "GET-TM": { event: on.get("/tm") },
    "POST-EDEV": { event: on.post("/edev"), enables: ["GET-DER", "PUT-CP"] },
    "GET-DER": { event: on.get("/edev/*/der") },
    "PUT-CP": { event: on.put("/edev/*/cp") },
  },
};

describe("ALL-03 Connection Point registration", () => {
  let p: ProcedureWorld;
  beforeAll(async () => {
    p = await runProcedureWorld({ procedure: ALL_03, preconditions: [programWithDefault({ impW: 0, expW: 0 })] });
  });
  afterAll(() => p?.world.close());

  it("completes every step", () => {
    allStepsComplete(p.run, ["GET-DCAP", "GET-EDEV", "GET-TM", "POST-EDEV", "GET-DER", "PUT-CP"]);
  });

  it("end-device-contents: the LFDI ends in the PEN and the ConnectionPoint holds the NMI", () => {
    const device = endDeviceContents(p.control, p.world.siteLfdi(SITE_SN), { pen: penSuffix(), connectionPointId: SITE_NMI });
    const put = p.run.completed.find((s) => s.step === "PUT-CP")?.request;
    expect(put?.path).toBe(`/edev/${device.id}/cp`);
    expect(put?.body).toMatch(new RegExp(`connectionPointId>${SITE_NMI}</`));
  });
});
