import { CSIPAUS_NAMESPACE } from "@ess/sep2/xml.ts";
import { on, type Procedure } from "@ess/utility-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allStepsComplete, derContents } from "./checks.ts";
import { type ProcedureWorld, programWithDefault, runProcedureWorld } from "./procedure-world.ts";

// ALL-09 Capabilities and Settings: after reading its DER list the client PUTs the DER's status,
// capability (doeModesSupported, rtgMaxW) and settings (setMaxW, doeModesEnabled).
const ALL_09: Procedure = {
  start: ["GET-DER"],
  steps: {
    "GET-DER": { event: on.get("/edev/*/der"), enables: ["PUT-DERSTATUS", "PUT-DERCAPABILITY", "PUT-DERSETTINGS"] },
    "PUT-DERSTATUS": { event: on.put("/edev/*/der/*/ders") },
    "PUT-DERCAPABILITY": { event: on.put("/edev/*/der/*/dercap") },
    "PUT-DERSETTINGS": { event: on.put("/edev/*/der/*/derg") },
  },
};

describe("ALL-09 Capabilities and Settings", () => {
  let p: ProcedureWorld;
  beforeAll(async () => {
    p = await runProcedureWorld({
      procedure: ALL_09,
      site: { ratedPowerKw: 5 },
      preconditions: [programWithDefault({ impW: 0, expW: 0 })],
    });
  });
  afterAll(() => p?.world.close());

  it("completes every step", () => {
    allStepsComplete(p.run, ["GET-DER", "PUT-DERSTATUS", "PUT-DERCAPABILITY", "PUT-DERSETTINGS"]);
  });

  it("der-capability-contents: doeModesSupported and rtgMaxW (the device's 5 kW)", () => {
    const id = p.control.endDevices()[0]?.id as number;
    const capability = derContents(p.control, id, "capability", ["doeModesSupported", "rtgMaxW"]);
    const rtgMaxW = capability.rtgMaxW as { value: number; multiplier: number };
    expect(rtgMaxW.value * 10 ** rtgMaxW.multiplier).toBe(5000);
  });

  it("der-settings-contents: setMaxW and doeModesEnabled; der-status-contents: a status", () => {
    const id = p.control.endDevices()[0]?.id as number;
    derContents(p.control, id, "settings", ["setMaxW", "doeModesEnabled"]);
    derContents(p.control, id, "status", ["readingTime", "genConnectStatus"]);
  });

  it("writes the CSIP-AUS elements in the v1.3 namespace", () => {
    const put = p.run.completed.find((s) => s.step === "PUT-DERCAPABILITY")?.request;
    expect(put?.body).toContain(CSIPAUS_NAMESPACE);
    expect(put?.body).toMatch(/doeModesSupported>0F</);
  });
});
