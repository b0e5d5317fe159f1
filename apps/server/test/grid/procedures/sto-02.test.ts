import { on, type Procedure } from "@ess/utility-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allStepsComplete, derContents } from "./checks.ts";
import { type ProcedureWorld, programWithDefault, runProcedureWorld } from "./procedure-world.ts";

// STO-02 Capabilities and settings - storage (v1.3): the DER list read, then capability and
// settings PUTs carrying the storage, reactive power and VPP fields.
const STO_02: Procedure = {
  start: ["GET-DER"],
  steps: {
    "GET-DER": { event: on.get("/edev/*/der"), enables: ["PUT-DERCAPABILITY", "PUT-DERSETTINGS"] },
    "PUT-DERCAPABILITY": { event: on.put("/edev/*/der/*/dercap") },
    "PUT-DERSETTINGS": { event: on.put("/edev/*/der/*/derg") },
  },
};

describe("STO-02 Capabilities and settings - storage", () => {
  let p: ProcedureWorld;
  beforeAll(async () => {
    p = await runProcedureWorld({ procedure: STO_02, preconditions: [programWithDefault({ impW: 0, expW: 0 })] });
  });
  afterAll(() => p?.world.close());

  it("completes every step", () => {
    allStepsComplete(p.run, ["GET-DER", "PUT-DERCAPABILITY", "PUT-DERSETTINGS"]);
  });

  it("der-capability-contents: apparent, reactive, power factor, storage and VPP ratings", () => {
    const id = p.control.endDevices()[0]?.id as number;
    derContents(p.control, id, "capability", [
      "rtgMaxVA",
      "rtgMaxVar",
      "rtgMaxVarNeg",
      "rtgMaxW",
      "rtgMinPFOverExcited",
      "rtgMinPFUnderExcited",
      "doeModesSupported",
      "rtgMaxChargeRateW",
      "rtgMaxDischargeRateW",
      "rtgMaxWh",
      "vppModesSupported",
    ]);
  });

  it("der-settings-contents: the matching settings, setMinWh and vppModesEnabled included", () => {
    const id = p.control.endDevices()[0]?.id as number;
    derContents(p.control, id, "settings", [
      "setMaxVA",
      "setMaxVar",
      "setMaxVarNeg",
      "setMaxW",
      "setMinPFOverExcited",
      "setMinPFUnderExcited",
      "doeModesEnabled",
      "setMaxChargeRateW",
      "setMaxDischargeRateW",
      "setMaxWh",
      "setMinWh",
      "vppModesEnabled",
    ]);
    const put = p.run.completed.find((s) => s.step === "PUT-DERSETTINGS")?.request;
    // bit0: the storage target (opModStorageTargetW) is acted on, charging and discharging.
    expect(put?.body).toMatch(/vppModesEnabled>01</);
    const cap = p.run.completed.find((s) => s.step === "PUT-DERCAPABILITY")?.request;
    expect(cap?.body).toMatch(/vppModesSupported>01</);
    expect(put?.body).toMatch(/<setMinPFOverExcited>\s*<displacement>80<\/displacement>\s*<multiplier>-2<\/multiplier>/);
  });
});
