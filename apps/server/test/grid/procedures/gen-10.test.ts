import { type Action, on, type Procedure } from "@ess/utility-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allStepsComplete, endDeviceContents } from "./checks.ts";
import { type ProcedureWorld, runProcedureWorld, SITE_SN, updateDefault } from "./procedure-world.ts";
import { commandedAt, TaggedControls, w } from "./tagged-controls.ts";

// GEN-10 Primacy Validation for Generators: five programs of primacy 1 (FSA 1, DERP 1–5) and ten of
// primacy 2 (FSA 2, DERP 6–15); controls of both run side by side. A control whose every mode is
// set by one of higher priority is superseded (DERC1 under DERC2); one with a mode of its own is
// started beside it (DERC5 beside DERC4, DERC8 beside DERC7, DERC9 and DERC10).

const MAX_W = 10_000;
const RSP = "/edev/*/rsps/site_control/rsp";
const FSA1 = "/edev/*/fsa/1/derp";
const FSA2 = "/edev/*/fsa/2/derp";
const P1 = 0; // DERP 1
const P6 = 5; // DERP 6
const c = new TaggedControls();

const programs: Action = ({ control }) => {
  for (let i = 0; i < 5; i++) control.createProgram({ primacy: 1, fsaId: 1 });
  for (let i = 0; i < 10; i++) control.createProgram({ primacy: 2, fsaId: 2 });
};
const defaults = [updateDefault(P1, { impW: 0, expW: 0, setGradW: 167 }), updateDefault(P6, { impW: 0, expW: 0, setGradW: 167 })];

const started = (tag: string) => on.postServed(RSP, c.latest(2, tag));
const completed = (tag: string) => on.postServed(RSP, c.latest(3, tag));
const superseded = (tag: string) => on.postServed(RSP, c.latest(7, tag));

const GEN_10: Procedure = {
  start: ["GET-DEFAULT-DERC"],
  steps: {
    "GET-DEFAULT-DERC": {
      event: on.get("/edev/*/derp/1/dderc"),
      actions: [updateDefault(P1, { expW: MAX_W * 0.3 })],
      enables: ["WAIT-OBSERVE-DEFAULT-DERC"],
    },
    "WAIT-OBSERVE-DEFAULT-DERC": { event: on.wait(180), enables: ["GET-DERP-1"] },
    "GET-DERP-1": {
      event: on.get(FSA2),
      actions: [c.create("DERC1", P6, 600, { expW: MAX_W * 2 })],
      enables: ["GET-DERC-1", "POST-DERC-1-RESPONSE-STARTED"],
    },
    "GET-DERC-1": { event: on.get("/edev/*/derp/6/derc") },
    "POST-DERC-1-RESPONSE-STARTED": { event: started("DERC1"), enables: ["WAIT-DERC-1"] },
    "WAIT-DERC-1": { event: on.wait(60), enables: ["GET-DERP-2"] },
    "GET-DERP-2": {
      event: on.get(FSA1),
      actions: [c.create("DERC2", P1, 840, { expW: 0 })],
      enables: ["GET-DERC-2", "POST-DERC-2-RESPONSE-STARTED", "POST-DERC-1-RESPONSE-SUPERSEDED"],
    },
    "GET-DERC-2": { event: on.get("/edev/*/derp/1/derc") },
    "POST-DERC-2-RESPONSE-STARTED": { event: started("DERC2"), enables: ["POST-DERC-2-RESPONSE-COMPLETED"] },
    "POST-DERC-1-RESPONSE-SUPERSEDED": { event: superseded("DERC1") },
    "POST-DERC-2-RESPONSE-COMPLETED": { event: completed("DERC2"), enables: ["GET-DERP-3"] },
    "GET-DERP-3": {
      event: on.get(FSA2),
      actions: [c.create("DERC3", P6, 300, { expW: MAX_W * 2 })],
      enables: ["GET-DERC-3", "POST-DERC-3-RESPONSE-STARTED"],
    },
    "GET-DERC-3": { event: on.get("/edev/*/derp/6/derc") },
    "POST-DERC-3-RESPONSE-STARTED": { event: started("DERC3"), enables: ["POST-DERC-3-RESPONSE-COMPLETED"] },
    "POST-DERC-3-RESPONSE-COMPLETED": { event: completed("DERC3"), enables: ["WAIT-OBSERVE-DEFAULT-AFTER-DERC-3"] },
    "WAIT-OBSERVE-DEFAULT-AFTER-DERC-3": { event: on.wait(120), enables: ["GET-DERP-4", "GET-DERP-5"] },
    "GET-DERP-4": {
      event: on.get(FSA1),
      actions: [c.create("DERC4", P1, 300, { genW: 0, connect: false })],
      enables: ["GET-DERC-4", "POST-DERC-4-RESPONSE-STARTED"],
    },
    "GET-DERC-4": { event: on.get("/edev/*/derp/1/derc") },
    "GET-DERP-5": {
      event: on.get(FSA2),
      actions: [c.create("DERC5", P6, 1200, { expW: MAX_W * 2 })],
      enables: ["GET-DERC-5", "POST-DERC-5-RESPONSE-STARTED"],
    },
    "GET-DERC-5": { event: on.get("/edev/*/derp/6/derc") },
    "POST-DERC-4-RESPONSE-STARTED": { event: started("DERC4"), enables: ["POST-DERC-4-RESPONSE-COMPLETED"] },
    "POST-DERC-5-RESPONSE-STARTED": { event: started("DERC5") },
    "POST-DERC-4-RESPONSE-COMPLETED": { event: completed("DERC4"), enables: ["WAIT-OBSERVE-DERC-5"] },
    "WAIT-OBSERVE-DERC-5": { event: on.wait(450), enables: ["GET-DERP-6"] },
    "GET-DERP-6": {
      event: on.get(FSA2),
      actions: [c.create("DERC6", P6, 300, { expW: MAX_W * 0.5 })],
      enables: ["GET-DERC-6", "POST-DERC-5-RESPONSE-SUPERSEDED", "POST-DERC-6-RESPONSE-STARTED"],
    },
    "GET-DERC-6": { event: on.get("/edev/*/derp/6/derc") },
    "POST-DERC-6-RESPONSE-STARTED": { event: started("DERC6"), enables: ["WAIT-OBSERVE-DERC-6"] },
    "POST-DERC-5-RESPONSE-SUPERSEDED": { event: superseded("DERC5") },
    "WAIT-OBSERVE-DERC-6": { event: on.wait(120), enables: ["GET-DERP-7", "GET-DERP-8"] },
    "GET-DERP-7": {
      event: on.get(FSA1),
      actions: [c.create("DERC7", P1, 300, { expW: 0 })],
      enables: ["GET-DERC-7", "POST-DERC-7-RESPONSE-STARTED"],
    },
    "GET-DERC-7": { event: on.get("/edev/*/derp/1/derc") },
    "GET-DERP-8": {
      event: on.get(FSA2),
      actions: [c.create("DERC8", P6, 300, { expW: MAX_W * 0.5, genW: MAX_W * 0.3 })],
      enables: ["GET-DERC-8", "POST-DERC-8-RESPONSE-STARTED"],
    },
    "GET-DERC-8": { event: on.get("/edev/*/derp/6/derc") },
    "POST-DERC-7-RESPONSE-STARTED": { event: started("DERC7"), enables: ["POST-DERC-7-RESPONSE-COMPLETED"] },
    "POST-DERC-8-RESPONSE-STARTED": { event: started("DERC8") },
    "POST-DERC-7-RESPONSE-COMPLETED": { event: completed("DERC7"), enables: ["GET-DERP-9", "GET-DERP-10"] },
    "GET-DERP-9": {
      event: on.get(FSA1),
      actions: [c.create("DERC9", P1, 300, { genW: MAX_W * 0.5 })],
      enables: ["GET-DERC-9", "POST-DERC-9-RESPONSE-STARTED"],
    },
    "GET-DERC-9": { event: on.get("/edev/*/derp/1/derc") },
    "GET-DERP-10": {
      event: on.get(FSA2),
      actions: [c.create("DERC10", P6, 300, { expW: MAX_W * 0.2 })],
      enables: ["GET-DERC-10", "POST-DERC-10-RESPONSE-STARTED"],
    },
    "GET-DERC-10": { event: on.get("/edev/*/derp/6/derc") },
    "POST-DERC-9-RESPONSE-STARTED": { event: started("DERC9"), enables: ["WAIT-OBSERVE-DERC-9-10"] },
    "POST-DERC-10-RESPONSE-STARTED": { event: started("DERC10") },
    "WAIT-OBSERVE-DERC-9-10": {
      event: on.wait(120),
      enables: ["GET-UPDATED-DEFAULT-DERP-1", "GET-UPDATED-DEFAULT-DERP-6"],
    },
    "GET-UPDATED-DEFAULT-DERP-1": { event: on.get("/edev/*/derp/1/dderc"), actions: [updateDefault(P1, { expW: MAX_W * 0.5 })] },
    "GET-UPDATED-DEFAULT-DERP-6": {
      event: on.get("/edev/*/derp/6/dderc"),
      actions: [updateDefault(P6, { expW: MAX_W * 0.2 }), ({ control }) => void control.cancelActiveControls()],
      enables: ["WAIT-OBSERVE-DERP-1-6-DEFAULTS"],
    },
    "WAIT-OBSERVE-DERP-1-6-DEFAULTS": { event: on.wait(300), finish: true },
  },
};

describe("GEN-10 Primacy Validation for Generators", () => {
  let p: ProcedureWorld;
  const at = (step: string) => p.run.completed.find((s) => s.step === step)?.at ?? Number.NaN;
  beforeAll(async () => {
    p = await runProcedureWorld({
      procedure: GEN_10,
      // About an hour of steps; nothing here is timed against the poll rates, so it can run fast.
      factor: 200,
      timeoutMs: 40_000,
      site: { ratedPowerKw: MAX_W / 1000 },
      preconditions: [programs, ...defaults],
    });
  }, 60_000);
  afterAll(() => p?.world.close());

  it("end-device-contents and der-settings-contents (preconditions)", () => {
    const device = endDeviceContents(p.control, p.world.siteLfdi(SITE_SN));
    expect(device.der.settings?.setMaxW).toBeDefined();
  });

  it("completes every step: each control answered as its primacy and modes say", () => {
    allStepsComplete(p.run, Object.keys(GEN_10.steps));
    expect(c.statuses(p.control, "DERC1")).toEqual([1, 2, 7]);
    expect(c.statuses(p.control, "DERC5")).toEqual([1, 2, 7]);
    for (const tag of ["DERC2", "DERC3", "DERC4", "DERC7"]) expect(c.statuses(p.control, tag), tag).toEqual([1, 2, 3]);
    // Partly in force beside a control of higher priority: started, not superseded (how they end
    // depends on what the utility does next).
    for (const tag of ["DERC8", "DERC9", "DERC10"]) expect(c.statuses(p.control, tag).slice(0, 2), tag).toEqual([1, 2]);
  });

  it("commands the device the export limits the procedure has the operator observe", () => {
    const exportAt = (ms: number) => w(commandedAt(p.world, ms)?.opModExpLimW);
    // Each observation is read just before the utility's next change: the waits are 0.6 s here, and
    // a loaded machine may take that long to settle an event's end; the limit must hold by then.
    const beforeNext = (...steps: string[]) => Math.min(...steps.map(at)) - 1;
    // [b] the default of DERP 1, 30 %, the first thing commanded, before DERC1 exists (its 180 s
    // are 0.9 s here: the first poll of fifteen programs on a loaded machine may take longer, so
    // not checked at the step's moment); [l] the same once DERC3 is over; [t] DERC6, 50 %.
    const first = p.world.effective.find((e) => e.active);
    expect(w(first?.active?.control.opModExpLimW)).toBe(MAX_W * 0.3);
    expect(first?.at).toBeLessThan(at("GET-DERP-1"));
    expect(exportAt(beforeNext("GET-DERP-4", "GET-DERP-5"))).toBe(MAX_W * 0.3);
    expect(exportAt(beforeNext("GET-DERP-7", "GET-DERP-8"))).toBe(MAX_W * 0.5);
    // [z] DERC10's 20 % beside DERC9's generation limit; [ee] DERP 1's new default, 50 %.
    expect(exportAt(beforeNext("GET-UPDATED-DEFAULT-DERP-1", "GET-UPDATED-DEFAULT-DERP-6"))).toBe(MAX_W * 0.2);
    expect(exportAt(at("WAIT-OBSERVE-DERP-1-6-DEFAULTS"))).toBe(MAX_W * 0.5);
  });
});
