import { type Action, on, type Procedure, type UtilityControl } from "@ess/utility-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allStepsComplete, endDeviceContents } from "./checks.ts";
import { type ProcedureWorld, programWithDefault, RATES_60, runProcedureWorld, SITE_SN } from "./procedure-world.ts";

// ALL-18 Control Responses: four controls, each answered as its fate says — DERC1 runs (1, 2, 3);
// DERC2 is cancelled while in force (1, 2, 6); DERC3 is cancelled before its start (1, 6); DERC4 is
// superseded by a newer control of its program over the same time (1, 7). Every control gets 1.

const RSP = "/edev/*/rsps/site_control/rsp";
const MAX_W = 20_000;
const tags = new Map<string, string>();

const kw = (w: number) => ({ value: Math.round(w / 1000), multiplier: 3 });

/** create-der-control in the first program, `startIn` seconds from now, tagged for the checks. */
function control(tag: string | null, startIn: number, seconds: number, limitW: number): Action {
  return ({ control }) => {
    const program = control.programs()[0];
    if (!program) throw new Error("no program to hold the control");
    const created = control.createControl({
      programId: program.id,
      start: control.now() + startIn,
      duration: seconds,
      base: { opModExpLimW: kw(limitW), opModImpLimW: kw(limitW) },
    });
    if (tag) tags.set(tag, created.mRID);
  };
}

const cancelActive: Action = ({ control }) => void control.cancelActiveControls();

/** response-contents: the response just posted (latest) has this status and subject. */
const latest = (status: number, tag: string) => (c: UtilityControl) => {
  const last = c.responses().at(-1)?.response;
  return last?.status === status && last.subject === tags.get(tag);
};
/** response-contents without `latest`: any response so far has this status and subject. */
const any = (status: number, tag: string) => (c: UtilityControl) =>
  c.responses().some((r) => r.response.status === status && r.response.subject === tags.get(tag));

const ALL_18: Procedure = {
  start: ["POST-RESPONSE-RECEIVED"],
  steps: {
    "POST-RESPONSE-RECEIVED": { event: on.postServed(RSP, latest(1, "DERC1")), enables: ["POST-RESPONSE-STARTED"] },
    "POST-RESPONSE-STARTED": { event: on.postServed(RSP, latest(2, "DERC1")), enables: ["POST-RESPONSE-COMPLETED"] },
    "POST-RESPONSE-COMPLETED": {
      event: on.postServed(RSP, latest(3, "DERC1")),
      actions: [control("DERC2", 300, 600, MAX_W * 2)],
      enables: ["POST-SECOND-RESPONSE-RECEIVED"],
    },
    "POST-SECOND-RESPONSE-RECEIVED": {
      event: on.postServed(RSP, latest(1, "DERC2")),
      enables: ["POST-SECOND-RESPONSE-STARTED"],
    },
    "POST-SECOND-RESPONSE-STARTED": {
      event: on.postServed(RSP, latest(2, "DERC2")),
      actions: [cancelActive],
      enables: ["POST-SECOND-RESPONSE-CANCELLED"],
    },
    "POST-SECOND-RESPONSE-CANCELLED": {
      event: on.postServed(RSP, latest(6, "DERC2")),
      actions: [control("DERC3", 600, 120, 0)],
      enables: ["POST-THIRD-RESPONSE-RECEIVED"],
    },
    "POST-THIRD-RESPONSE-RECEIVED": {
      event: on.postServed(RSP, latest(1, "DERC3")),
      actions: [cancelActive],
      enables: ["POST-THIRD-RESPONSE-CANCELLED"],
    },
    "POST-THIRD-RESPONSE-CANCELLED": {
      event: on.postServed(RSP, latest(6, "DERC3")),
      actions: [control("DERC4", 600, 600, MAX_W * 2)],
      enables: ["POST-FOURTH-RESPONSE-RECEIVED"],
    },
    "POST-FOURTH-RESPONSE-RECEIVED": {
      event: on.postServed(RSP, latest(1, "DERC4")),
      actions: [control("DERC5", 600, 60, 0)],
      enables: ["POST-FOURTH-RESPONSE-SUPERSEDED"],
    },
    "POST-FOURTH-RESPONSE-SUPERSEDED": { event: on.postServed(RSP, any(7, "DERC4")), finish: true },
  },
};

describe("ALL-18 Control Responses", () => {
  let p: ProcedureWorld;
  beforeAll(async () => {
    p = await runProcedureWorld({
      procedure: ALL_18,
      rates: RATES_60,
      timeoutMs: 60_000,
      site: { ratedPowerKw: MAX_W / 1000 },
      preconditions: [programWithDefault({ impW: 0, expW: 0 }), control("DERC1", 0, 120, MAX_W * 2)],
    });
  }, 90_000);
  afterAll(() => p?.world.close());

  it("end-device-contents (precondition): the site is registered", () => {
    endDeviceContents(p.control, p.world.siteLfdi(SITE_SN));
  });

  it("completes every step: each control answered as its fate says, in order", () => {
    allStepsComplete(p.run, Object.keys(ALL_18.steps));
    const statuses = (tag: string) =>
      p.control
        .responses()
        .filter((r) => r.response.subject === tags.get(tag))
        .map((r) => r.response.status);
    expect(statuses("DERC1")).toEqual([1, 2, 3]);
    expect(statuses("DERC2")).toEqual([1, 2, 6]);
    expect(statuses("DERC3")).toEqual([1, 6]);
    expect(statuses("DERC4")).toEqual([1, 7]);
  });

  it("response-contents (all, status 1): every control was answered received, for the site's LFDI", () => {
    for (const mrid of tags.values()) {
      const received = p.control.responses().filter((r) => r.response.subject === mrid && r.response.status === 1);
      expect(received, mrid).toHaveLength(1);
      expect(received[0]?.response.endDeviceLFDI).toBe(p.lfdi);
    }
  });
});
