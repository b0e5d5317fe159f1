import { on, type Procedure } from "@ess/utility-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pollsAtCorrectTime } from "./checks.ts";
import { type ProcedureWorld, programWithDefault, runProcedureWorld, siteRequests } from "./procedure-world.ts";
import { registeredAndCompleted, TaggedControls, w } from "./tagged-controls.ts";

// ALL-24 Validation of Scaling Factors: three controls in a row, their limits sent with multipliers
// 0, 2 and 1; each is received and started, and the console commands the same watts whatever the
// multiplier. Polls keep to 120 s (60 s for the mirrors' list).

const MAX_W = 10_000;
const DERP = "/edev/*/fsa/1/derp";
const c = new TaggedControls();
const limits = (share: number, pow10?: number) => ({ expW: MAX_W * share, impW: MAX_W * share, pow10 });

const ALL_24: Procedure = {
  start: ["GET-DERC-1"],
  steps: {
    "GET-DERC-1": { event: on.get(DERP), actions: [c.create("DERC1", 0, 120, limits(2))], enables: ["GET-DERC-2"] },
    "GET-DERC-2": { event: on.get(DERP), actions: [c.create("DERC2", 0, 120, limits(0.3, 2))], enables: ["GET-DERC-3"] },
    "GET-DERC-3": { event: on.get(DERP), actions: [c.create("DERC3", 0, 120, limits(0.4, 1))], enables: ["WAIT-TEST-END"] },
    "WAIT-TEST-END": { event: on.wait(180), finish: true },
  },
};

const RATES_120 = { dcapPoll: 120, edevListPoll: 120, fsaListPoll: 120, derListPoll: 120, derpListPoll: 120, mupPost: 60 };

describe("ALL-24 Validation of Scaling Factors", () => {
  let p: ProcedureWorld;
  beforeAll(async () => {
    p = await runProcedureWorld({
      procedure: ALL_24,
      rates: RATES_120,
      // Not faster: the poll checks allow half an interval, and a stall of the loaded machine is
      // multiplied by the factor in server time.
      factor: 40,
      timeoutMs: 30_000,
      site: { ratedPowerKw: MAX_W / 1000 },
      preconditions: [programWithDefault({ impW: 0, expW: 0 })],
    });
  }, 45_000);
  afterAll(() => p?.world.close());

  registeredAndCompleted(() => p, Object.keys(ALL_24.steps), MAX_W);

  it("response-contents (all, status 1 and 2): every control received and started", () => {
    expect(c.mrids.size).toBe(3);
    for (const tag of c.mrids.keys()) expect(c.statuses(p.control, tag).slice(0, 2), tag).toEqual([1, 2]);
  });

  it("sent with multipliers 2 and 1, the limits are commanded in the same watts", () => {
    const sent = p.control.controls().map((x) => x.base.opModExpLimW?.multiplier);
    expect(sent).toEqual([0, 2, 1]);
    const commanded = (tag: string) =>
      p.world.effective
        .filter((e) => e.active?.source.mrid === c.mrids.get(tag))
        .map((e) => [w(e.active?.control.opModExpLimW), w(e.active?.control.opModImpLimW)]);
    expect(commanded("DERC1")[0]).toEqual([MAX_W * 2, MAX_W * 2]);
    expect(commanded("DERC2")[0]).toEqual([MAX_W * 0.3, MAX_W * 0.3]);
    expect(commanded("DERC3")[0]).toEqual([MAX_W * 0.4, MAX_W * 0.4]);
  });

  it("all-polls-at-correct-time: the resources at 120 s, the mirrors' list at 60 s", () => {
    const requests = siteRequests(p.world);
    const startedAt = p.run.startedAt;
    pollsAtCorrectTime(requests, {
      endpoints: ["/dcap", "/edev", "/edev/*/fsa", "/edev/*/der", "/edev/*/fsa/1/derp", "/edev/*/derp/1/dderc"],
      method: "GET",
      intervalSeconds: 120,
      startedAt,
    });
    pollsAtCorrectTime(requests, { endpoints: ["/mup"], method: "GET", intervalSeconds: 60, startedAt });
  });
});
