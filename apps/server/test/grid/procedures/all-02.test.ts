import { penSuffix } from "@ess/domain";
import { on, type Procedure } from "@ess/utility-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allStepsComplete, derContents, endDeviceContents } from "./checks.ts";
import { type ProcedureWorld, programWithDefault, runProcedureWorld, SITE_SN } from "./procedure-world.ts";

// ALL-02 Discovery with In-Band Registration: dcap, time, POST of the EndDevice, then its DER list;
// the DER's capability, settings and status are written, the EndDevice's LFDI ends in the PEN.
const ALL_02: Procedure = {
  start: ["GET-DCAP"],
  steps: {
    "GET-DCAP": { event: on.get("/dcap"), enables: ["POST-EDEV", "GET-TM"] },
    "GET-TM": { event: on.get("/tm") },
    "POST-EDEV": { event: on.post("/edev"), enables: ["GET-DER"] },
    "GET-DER": { event: on.get("/edev/*/der") },
  },
};

describe("ALL-02 Discovery with In-Band Registration", () => {
  let p: ProcedureWorld;
  beforeAll(async () => {
    p = await runProcedureWorld({ procedure: ALL_02, preconditions: [programWithDefault({ impW: 0, expW: 0 })] });
    // The DER descriptions follow the DER list read that ended the steps.
    const until = Date.now() + 10_000;
    while (Date.now() < until && p.control.derWrites().filter((w) => w.kind !== "availability").length < 3)
      await new Promise((resolve) => setTimeout(resolve, 50));
  });
  afterAll(() => p?.world.close());

  it("completes every step in order", () => {
    allStepsComplete(p.run, ["GET-DCAP", "GET-TM", "POST-EDEV", "GET-DER"]);
    const order = p.run.completed.map((s) => s.step);
    expect(order.indexOf("POST-EDEV")).toBeLessThan(order.indexOf("GET-DER"));
  });

  it("end-device-contents: one EndDevice, registered in band, its LFDI ending in the PEN", () => {
    const device = endDeviceContents(p.control, p.world.siteLfdi(SITE_SN), { pen: penSuffix() });
    expect(device.inBand).toBe(true);
    expect(p.control.endDevices()).toHaveLength(1);
  });

  it("der-capability-contents, der-settings-contents, der-status-contents: all three written", () => {
    const id = p.control.endDevices()[0]?.id as number;
    derContents(p.control, id, "capability", ["modesSupported", "rtgMaxW", "type"]);
    derContents(p.control, id, "settings", ["setMaxW", "updatedTime"]);
    derContents(p.control, id, "status", ["readingTime"]);
  });
});
