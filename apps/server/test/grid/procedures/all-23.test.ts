import { type Action, on, type Procedure } from "@ess/utility-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allStepsComplete, endDeviceContents } from "./checks.ts";
import { type ProcedureWorld, programWithDefault, runProcedureWorld, SITE_SN, updateDefault } from "./procedure-world.ts";
import { TaggedControls, w } from "./tagged-controls.ts";

// ALL-23 Communication Loss: five one-minute controls back to back are known, then the utility
// stops answering for seven minutes. The DER "should continue to follow the schedule and then
// reduce to the default of 0 W" (an operator's observation): the test checks what the console
// commands while it cannot reach the utility. Communications return with a new control.

const MAX_W = 10_000;
const SHARES = [2, 0.2, 1.8, 0.7, 1.3];
const c = new TaggedControls();
const both = (share: number) => ({ expW: MAX_W * share, impW: MAX_W * share });
const schedule = SHARES.map((share, i) => c.create(`DERC${i + 1}`, 0, 60, both(share), i * 60));
const outage =
  (off: boolean): Action =>
  ({ control }) =>
    control.setOutage(off);

const ALL_23: Procedure = {
  start: ["GET-DEFAULT-DERC"],
  steps: {
    // The published preconditions create the five controls on a client already polling; here the
    // client starts with the steps, so they are created as it first reads the default control
    // (and then its controls), its start-up at the compressed rate would outlast them otherwise.
    "GET-DEFAULT-DERC": {
      event: on.get("/edev/*/derp/1/dderc"),
      actions: [...schedule, updateDefault(0, { impW: 0, expW: 0 })],
      enables: ["WAIT-SHORT-PERIOD"],
    },
    "WAIT-SHORT-PERIOD": { event: on.wait(10), actions: [outage(true)], enables: ["WAIT-SCHEDULE-END"] },
    "WAIT-SCHEDULE-END": {
      event: on.wait(420),
      actions: [outage(false), c.create("RESTORED", 0, 300, both(2))],
      enables: ["WAIT-TEST-FINISH", "GET-DERC-AFTER-COMMS-RESTORE"],
    },
    "GET-DERC-AFTER-COMMS-RESTORE": { event: on.get("/edev/*/derp/1/derc") },
    "WAIT-TEST-FINISH": { event: on.wait(120), finish: true },
  },
};

describe("ALL-23 Communication Loss", () => {
  let p: ProcedureWorld;
  const at = (step: string) => p.run.completed.find((s) => s.step === step)?.at ?? Number.NaN;
  beforeAll(async () => {
    p = await runProcedureWorld({
      procedure: ALL_23,
      // Not faster: the outage starts 10 s after the schedule is read, and the client must be
      // back within the 120 s after it, both short in real time on a loaded machine.
      factor: 40,
      timeoutMs: 35_000,
      site: { ratedPowerKw: MAX_W / 1000 },
      preconditions: [programWithDefault({ impW: 0, expW: 0 })],
    });
  }, 45_000);
  afterAll(() => p?.world.close());

  it("end-device-contents and der-settings-contents (preconditions)", () => {
    const device = endDeviceContents(p.control, p.world.siteLfdi(SITE_SN));
    expect(device.der.settings).toBeDefined();
  });

  it("completes every step", () => {
    allStepsComplete(p.run, Object.keys(ALL_23.steps));
  });

  it("follows the schedule with the utility unreachable, then the default of 0 W", () => {
    const [from, to] = [at("WAIT-SHORT-PERIOD"), at("WAIT-SCHEDULE-END")];
    const offline = p.world.effective.filter((e) => e.at >= from && e.at < to);
    const limits = (tag: string) =>
      offline.filter((e) => e.active?.source.mrid === c.mrids.get(tag)).map((e) => w(e.active?.control.opModExpLimW));
    // DERC1 was already in force when the utility went quiet; the four after it start offline.
    for (const [i, share] of SHARES.entries()) if (i > 0) expect(limits(`DERC${i + 1}`), `DERC${i + 1}`).toEqual([MAX_W * share]);
    const last = offline.at(-1)?.active;
    expect(last?.source.kind).toBe("default");
    expect(w(last?.control.opModExpLimW)).toBe(0);
    expect(w(last?.control.opModImpLimW)).toBe(0);
    // Nothing reached the utility meanwhile: every request was refused.
    expect(p.control.requests().filter((r) => r.at > from + 1000 && r.at < to && r.status !== 500)).toEqual([]);
  });

  it("takes up the new control once the utility answers again", () => {
    const after = p.world.effective.filter((e) => e.at >= at("WAIT-SCHEDULE-END"));
    const restored = after.find((e) => e.active?.source.mrid === c.mrids.get("RESTORED"));
    expect(w(restored?.active?.control.opModExpLimW)).toBe(MAX_W * 2);
  });
});
