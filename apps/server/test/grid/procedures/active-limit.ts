import { on, type Procedure } from "@ess/utility-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ProcedureWorld, runProcedureWorld, updateDefault } from "./procedure-world.ts";
import { beforeNextControl, commandedAt, registeredAndCompleted, TaggedControls, w } from "./tagged-controls.ts";

/**
 * GEN-01 (export) and LOA-01 (import), the same procedure for one limit: a control at 200 % of the
 * rating in force, then one of 0 W; the default control ramps at 600 (6 %/s). The device "should
 * reach" each limit as an operator sees it; the tests check what the console commands instead.
 */

const MAX_W = 10_000;

export function describeActiveLimit(name: string, limit: "expW" | "impW"): void {
  const c = new TaggedControls();
  const field = limit === "expW" ? "opModExpLimW" : "opModImpLimW";
  const procedure: Procedure = {
    start: ["GET-DERC-INITIAL"],
    steps: {
      "GET-DERC-INITIAL": { event: on.get("/edev/*/derp/1/derc"), enables: ["WAIT-CONTROL"] },
      "WAIT-CONTROL": { event: on.wait(60), enables: ["GET-DERC-ZERO"] },
      "GET-DERC-ZERO": {
        event: on.get("/edev/*/fsa/1/derp"),
        actions: [c.create("ZERO", 0, 300, { [limit]: 0 })],
        enables: ["WAIT-REACH-ZERO"],
      },
      "WAIT-REACH-ZERO": { event: on.wait(120), finish: true },
    },
  };

  describe(name, () => {
    let p: ProcedureWorld;
    const at = (step: string) => p.run.completed.find((s) => s.step === step)?.at ?? Number.NaN;
    beforeAll(async () => {
      p = await runProcedureWorld({
        procedure,
        // The first control runs 900 s from before the client's start (30 s at this factor), so that
        // even a loaded machine's start-up leaves it in force through WAIT-CONTROL; the later ZERO
        // control is newer at the same primacy and takes over from it whatever time it has left.
        factor: 30,
        site: { ratedPowerKw: MAX_W / 1000 },
        preconditions: [
          ({ control }) => void control.createProgram({ primacy: 0 }),
          updateDefault(0, { impW: 0, expW: 0, setGradW: 600 }),
          c.create("HIGH", 0, 900, { [limit]: MAX_W * 2 }),
        ],
      });
    });
    afterAll(() => p?.world.close());

    registeredAndCompleted(() => p, Object.keys(procedure.steps), MAX_W);

    it("commands 200 % of the rating, then 0 W, at the default control's ramp rate", () => {
      const first = commandedAt(p.world, beforeNextControl(at("WAIT-CONTROL"), at("GET-DERC-ZERO")));
      expect(w(first?.[field])).toBe(MAX_W * 2);
      expect(first?.setGradW).toBe(600);
      const last = commandedAt(p.world, at("WAIT-REACH-ZERO"));
      expect(w(last?.[field])).toBe(0);
      expect(last?.setGradW).toBe(600);
      expect(c.statuses(p.control, "HIGH").slice(0, 2)).toEqual([1, 2]);
      expect(c.statuses(p.control, "ZERO").slice(0, 2)).toEqual([1, 2]);
    });
  });
}
