import { on, type Procedure } from "@ess/utility-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allStepsComplete, endDeviceContents, pollsAtCorrectTime } from "./checks.ts";
import { type ProcedureWorld, programWithDefault, runProcedureWorld, SITE_SN, siteRequests } from "./procedure-world.ts";
import { TaggedControls, w } from "./tagged-controls.ts";

// ALL-21 Scheduling: 24 one-minute controls back to back, all known from the start; each is
// received, started and completed, and the console commands each in turn; polls keep to 60 s.

const MAX_W = 10_000;
/** The procedure's shares of the rating, minute by minute. */
const SHARES = [
  0.3, 0.6, 0.4, 0.5, 0.2, 0.1, 0.7, 0.2, 0.3, 0.3, 0.5, 0.9, 0.1, 0.1, 0.5, 0.4, 0.1, 0.7, 0.9, 0.1, 0.4, 0.3, 0.7, 1,
];
const c = new TaggedControls();
const schedule = SHARES.map((share, i) => c.create(`DERC${i + 1}`, 0, 60, { expW: MAX_W * share, impW: MAX_W * share }, i * 60));

const ALL_21: Procedure = {
  start: ["CLIENT-READY"],
  steps: {
    // The published preconditions create the controls on a client already registered and polling;
    // here the client starts with the steps, so the schedule is created when it first lists the
    // programs (at the compressed rate its start-up would otherwise outlast the first controls).
    "CLIENT-READY": { event: on.get("/edev/*/fsa/1/derp"), actions: schedule, enables: ["WAIT-TEST-END"] },
    "WAIT-TEST-END": { event: on.wait(1500), finish: true },
  },
};

describe("ALL-21 Scheduling", () => {
  let p: ProcedureWorld;
  beforeAll(async () => {
    p = await runProcedureWorld({
      procedure: ALL_21,
      // 25 minutes in about 19 s, one control lasting 0.75 s. Not faster: the poll check allows a
      // poll 30 s late, 0.4 s of a loaded machine's stall at this factor.
      factor: 80,
      timeoutMs: 30_000,
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
    allStepsComplete(p.run, ["CLIENT-READY", "WAIT-TEST-END"]);
  });

  it("response-contents (all, status 1, 2 and 3): every control received, started and completed", () => {
    expect(c.mrids.size).toBe(24);
    for (const tag of c.mrids.keys()) expect(c.statuses(p.control, tag), tag).toEqual([1, 2, 3]);
  });

  it("commands each control's limits in turn", () => {
    // DERC1 starts as it is created, and the client's first poll stores and acknowledges all 24
    // before the schedule runs: at this rate (a control lasts 0.75 s) a loaded machine may let the
    // first two or three end before then (they are still answered started and completed, above).
    // From the first one commanded on, every control must be commanded in turn, with its limits.
    const commanded = SHARES.map(
      (_, i) => p.world.effective.find((e) => e.active?.source.mrid === c.mrids.get(`DERC${i + 1}`))?.active?.control,
    );
    const first = commanded.findIndex((x) => x !== undefined);
    expect(first).toBeGreaterThanOrEqual(0);
    expect(first).toBeLessThanOrEqual(2);
    const later = SHARES.slice(first);
    expect(commanded.slice(first).map((x) => w(x?.opModExpLimW))).toEqual(later.map((s) => MAX_W * s));
    expect(commanded.slice(first).map((x) => w(x?.opModImpLimW))).toEqual(later.map((s) => MAX_W * s));
  });

  it("all-polls-at-correct-time: every resource and the mirrors' list at 60 s", () => {
    pollsAtCorrectTime(siteRequests(p.world), {
      endpoints: ["/dcap", "/edev", "/edev/*/fsa", "/edev/*/der", "/edev/*/fsa/1/derp", "/edev/*/derp/1/dderc", "/mup"],
      method: "GET",
      intervalSeconds: 60,
      startedAt: p.run.startedAt,
    });
  });
});
