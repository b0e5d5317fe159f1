import { type Action, on, type Procedure } from "@ess/utility-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allStepsComplete, endDeviceContents } from "./checks.ts";
import { type ProcedureWorld, runProcedureWorld, SITE_SN } from "./procedure-world.ts";
import { TaggedControls } from "./tagged-controls.ts";

// P-02 EndDevice FunctionSetAssignmentList Changes: a control of DERP1 (FSA 1) is answered through
// to completed; then FSA 2 is withdrawn from the EndDevice and a control created in its program,
// DERP2, which still exists at the utility: the client must not answer it at all.

const MAX_W = 10_000;
const RSP = "/edev/*/rsps/site_control/rsp";
const c = new TaggedControls();
const both = { expW: MAX_W * 2, impW: MAX_W * 2 };

const programs: Action = ({ control }) => {
  control.createProgram({ primacy: 1, fsaId: 1 });
  control.createProgram({ primacy: 2, fsaId: 2 });
};
const withdrawFsa2: Action = ({ control }) => {
  const device = control.endDevices()[0];
  if (!device) throw new Error("no EndDevice");
  control.removeFunctionSetAssignment(device.id, 2);
};

const P_02: Procedure = {
  start: ["GET-DERC-1"],
  steps: {
    "GET-DERC-1": {
      event: on.get("/edev/*/derp/2/derc"),
      actions: [c.create("DERC1", 0, 120, both)],
      enables: ["POST-DERC1-RESPONSE-RECEIVED", "POST-DERC1-RESPONSE-STARTED", "POST-DERC1-RESPONSE-COMPLETED"],
    },
    "POST-DERC1-RESPONSE-RECEIVED": { event: on.postServed(RSP, c.latest(1, "DERC1")) },
    "POST-DERC1-RESPONSE-STARTED": { event: on.postServed(RSP, c.latest(2, "DERC1")) },
    "POST-DERC1-RESPONSE-COMPLETED": {
      event: on.postServed(RSP, c.latest(3, "DERC1")),
      actions: [withdrawFsa2],
      enables: ["GET-UPDATED-FSA"],
    },
    "GET-UPDATED-FSA": {
      event: on.get("/edev/*/fsa"),
      actions: [c.create("DERC2", 1, 120, both)],
      enables: ["FAIL-RESPONSE", "WAIT-FINISH"],
    },
    // Any response now fails the procedure: no program of the site's assignments has a control.
    "FAIL-RESPONSE": { event: on.post(RSP), finish: true },
    "WAIT-FINISH": { event: on.wait(180), finish: true },
  },
};

describe("P-02 EndDevice FunctionSetAssignmentList Changes", () => {
  let p: ProcedureWorld;
  beforeAll(async () => {
    p = await runProcedureWorld({
      procedure: P_02,
      timeoutMs: 25_000,
      site: { ratedPowerKw: MAX_W / 1000 },
      preconditions: [programs],
    });
  }, 40_000);
  afterAll(() => p?.world.close());

  it("end-device-contents and der-settings-contents (preconditions)", () => {
    const device = endDeviceContents(p.control, p.world.siteLfdi(SITE_SN));
    expect(device.der.settings).toBeDefined();
  });

  it("completes every step but FAIL-RESPONSE (ignored): the control of DERP1 answered received, started, completed", () => {
    expect(p.run.completed.map((s) => s.step)).not.toContain("FAIL-RESPONSE");
    allStepsComplete({ ...p.run, pending: p.run.pending.filter((s) => s !== "FAIL-RESPONSE") }, [
      ...Object.keys(P_02.steps).filter((s) => s !== "FAIL-RESPONSE"),
    ]);
    expect(c.statuses(p.control, "DERC1")).toEqual([1, 2, 3]);
  });

  it("never answers the control of the program no longer assigned, though it ran at the utility", () => {
    expect(c.statuses(p.control, "DERC2")).toEqual([]);
    const created = p.control.controls().find((x) => x.mRID === c.mrids.get("DERC2"));
    expect(created).toBeDefined();
  });
});
