import { on, type Procedure, type UtilityControl } from "@ess/utility-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allStepsComplete, endDeviceContents } from "./checks.ts";
import { type ProcedureWorld, programWithDefault, runProcedureWorld, SITE_SN, updateDefault } from "./procedure-world.ts";

// ALL-13 Default Controls – Ramp Rate: the default control's setGradW becomes 100 (1 %/s), and the
// client's DER settings must then say 100; back to 27, and they must say 27 again.
const DDERC = "/edev/*/derp/*/dderc";
const DERG = "/edev/*/der/*/derg";

/** der-settings-contents on the settings the client holds at the utility once the PUT is served. */
const settingsGradW = (gradW: number) => (control: UtilityControl) =>
  control.endDevices().some((d) => d.der.settings?.setGradW === gradW);

const ALL_13: Procedure = {
  start: ["GET-DEFAULT-DERC-100"],
  steps: {
    "GET-DEFAULT-DERC-100": {
      event: on.get(DDERC),
      actions: [updateDefault(0, { setGradW: 100 })],
      enables: ["PUT-DERSETTINGS-SET-GRAD-W-100"],
    },
    "PUT-DERSETTINGS-SET-GRAD-W-100": { event: on.putServed(DERG, settingsGradW(100)), enables: ["GET-DEFAULT-DERC-27"] },
    "GET-DEFAULT-DERC-27": {
      event: on.get(DDERC),
      actions: [updateDefault(0, { setGradW: 27 })],
      enables: ["PUT-DERSETTINGS-SET-GRAD-W-27"],
    },
    "PUT-DERSETTINGS-SET-GRAD-W-27": { event: on.putServed(DERG, settingsGradW(27)) },
  },
};

describe("ALL-13 Default Controls – Ramp Rate", () => {
  let p: ProcedureWorld;
  beforeAll(async () => {
    p = await runProcedureWorld({
      procedure: ALL_13,
      timeoutMs: 25_000,
      preconditions: [programWithDefault({ impW: 0, expW: 0 })],
    });
  }, 40_000);
  afterAll(() => p?.world.close());

  it("end-device-contents (precondition): the site is registered", () => {
    endDeviceContents(p.control, p.world.siteLfdi(SITE_SN));
  });

  it("completes every step: the DER settings follow the default control's ramp rate both ways", () => {
    allStepsComplete(p.run, Object.keys(ALL_13.steps));
    const gradW = p.control
      .derWrites()
      .filter((w) => w.kind === "settings")
      .map((w) => (w.value as { setGradW?: number }).setGradW);
    // 27 at registration, 100 once the default said so, 27 again.
    expect(gradW).toEqual([27, 100, 27]);
  });

  it("sends the device the ramp of the default control in force (the console's ramp register)", () => {
    const last = p.control.programs()[0]?.defaultControl;
    expect(last?.setGradW).toBe(27);
    expect(last?.version).toBe(2);
  });
});
