import { penSuffix } from "@ess/domain";
import { on, type Procedure } from "@ess/utility-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allStepsComplete, endDeviceContents } from "./checks.ts";
import { type ProcedureWorld, programWithDefault, runProcedureWorld, SITE_SN, siteRequests } from "./procedure-world.ts";

// ALL-01 Discovery with Out-of-Band Registration: the utility registered the site (PIN 111115,
// LFDI ending in the client's PEN); the client discovers it and reads its DER without POSTing one.
const ALL_01: Procedure = {
  start: ["GET-DCAP"],
  steps: {
    "GET-DCAP": { event: on.get("/dcap"), enables: ["GET-EDEV-LIST", "GET-TM", "GET-DER"] },
    "GET-EDEV-LIST": { event: on.get("/edev") },
    "GET-TM": { event: on.get("/tm") },
    "GET-DER": { event: on.get("/edev/*/der") },
  },
};

describe("ALL-01 Discovery with Out-of-Band Registration", () => {
  let p: ProcedureWorld;
  beforeAll(async () => {
    p = await runProcedureWorld({
      procedure: ALL_01,
      site: { outOfBand: { pin: 111115 } },
      preconditions: [programWithDefault({ impW: 0, expW: 0 })],
    });
  });
  afterAll(() => p?.world.close());

  it("completes every step: dcap, then the EndDevice list, time and the DER list", () => {
    allStepsComplete(p.run, ["GET-DCAP", "GET-EDEV-LIST", "GET-TM", "GET-DER"]);
    expect(p.run.completed[0]?.step).toBe("GET-DCAP");
  });

  it("uses the out-of-band EndDevice: its DER list is the one read, and no EndDevice is POSTed", () => {
    const device = endDeviceContents(p.control, p.world.siteLfdi(SITE_SN), { pen: penSuffix() });
    expect(device.inBand).toBe(false);
    expect(p.run.completed.find((s) => s.step === "GET-DER")?.request?.path).toBe(`/edev/${device.id}/der`);
    expect(siteRequests(p.world).filter((r) => r.method === "POST" && r.path === "/edev")).toHaveLength(0);
    expect(p.control.endDevices()).toHaveLength(1);
  });
});
