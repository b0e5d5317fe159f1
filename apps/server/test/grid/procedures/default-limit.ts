import { on, type Procedure } from "@ess/utility-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ProcedureWorld, runProcedureWorld, updateDefault } from "./procedure-world.ts";
import { beforeNextControl, commandedAt, registeredAndCompleted, TaggedControls, w } from "./tagged-controls.ts";

/**
 * GEN-03 (export) and LOA-03 (import), the same procedure for one limit: the default control's
 * limit becomes 30 % and the control of 200 % in force is cancelled, so the default holds; a new
 * control of 200 % runs ten minutes and the default holds again; finally a control of 0 W while
 * the default is withdrawn. The device "should ramp" to each (an operator's observation); the
 * tests check what the console commands, at the default's ramp rate (setGradW 167).
 */

const MAX_W = 10_000;
const GRAD_W = 167;

export function describeDefaultLimit(name: string, limit: "expW" | "impW", rampSeconds: number): void {
  const c = new TaggedControls();
  const field = limit === "expW" ? "opModExpLimW" : "opModImpLimW";
  const DERC = "/edev/*/derp/1/derc";
  const procedure: Procedure = {
    start: ["GET-DEFAULT-DERC"],
    steps: {
      "GET-DEFAULT-DERC": {
        event: on.get("/edev/*/derp/1/dderc"),
        actions: [updateDefault(0, { [limit]: MAX_W * 0.3 })],
        enables: ["GET-DERC-1"],
      },
      "GET-DERC-1": {
        event: on.getServed(DERC),
        actions: [({ control }) => void control.cancelActiveControls()],
        enables: ["WAIT-RAMP-DEFAULT-DERC"],
      },
      "WAIT-RAMP-DEFAULT-DERC": { event: on.wait(rampSeconds), enables: ["GET-DERC-2"] },
      "GET-DERC-2": {
        event: on.getServed(DERC),
        actions: [c.create("DERC2", 0, 600, { [limit]: MAX_W * 2 })],
        enables: ["WAIT-CONTROL-END"],
      },
      "WAIT-CONTROL-END": { event: on.wait(600), enables: ["WAIT-RAMP-DEFAULT-DERC-2"] },
      "WAIT-RAMP-DEFAULT-DERC-2": { event: on.wait(120), enables: ["GET-DERC-3"] },
      "GET-DERC-3": {
        event: on.get(DERC),
        actions: [
          c.create("DERC3", 0, 600, { [limit]: 0 }),
          ({ control }) => control.removeDefaultControl(control.programs()[0]?.id ?? 0),
        ],
        enables: ["WAIT-TEST-END"],
      },
      "WAIT-TEST-END": { event: on.wait(60), finish: true },
    },
  };

  describe(name, () => {
    let p: ProcedureWorld;
    const at = (step: string) => p.run.completed.find((s) => s.step === step)?.at ?? Number.NaN;
    const commanded = (step: string) => commandedAt(p.world, at(step));
    beforeAll(async () => {
      p = await runProcedureWorld({
        procedure,
        // Half an hour of steps; nothing is timed against the poll rates.
        factor: 100,
        timeoutMs: 30_000,
        site: { ratedPowerKw: MAX_W / 1000 },
        preconditions: [
          ({ control }) => void control.createProgram({ primacy: 0 }),
          updateDefault(0, { impW: 0, expW: 0, setGradW: GRAD_W }),
          c.create("DERC1", 0, 900, { [limit]: MAX_W * 2 }),
        ],
      });
    }, 45_000);
    afterAll(() => p?.world.close());

    registeredAndCompleted(() => p, Object.keys(procedure.steps), MAX_W);

    it("commands the default's 30 % once the control is cancelled, at the default's ramp rate", () => {
      expect(c.statuses(p.control, "DERC1")).toEqual([1, 2, 6]);
      const held = commandedAt(p.world, beforeNextControl(at("WAIT-RAMP-DEFAULT-DERC"), at("GET-DERC-2")));
      expect(w(held?.[field])).toBe(MAX_W * 0.3);
      expect(held?.setGradW).toBe(GRAD_W);
    });

    it("commands the new control's 200 %, then the default's 30 % again once it is over", () => {
      const during = p.world.effective.filter((e) => e.active?.source.mrid === c.mrids.get("DERC2"));
      expect(during.map((e) => w(e.active?.control[field]))).toContain(MAX_W * 2);
      expect(c.statuses(p.control, "DERC2")).toEqual([1, 2, 3]);
      const after = commandedAt(p.world, beforeNextControl(at("WAIT-RAMP-DEFAULT-DERC-2"), at("GET-DERC-3")));
      expect(w(after?.[field])).toBe(MAX_W * 0.3);
    });

    it("commands 0 W under the last control, with the default withdrawn", () => {
      const last = commanded("WAIT-TEST-END");
      expect(w(last?.[field])).toBe(0);
      expect(c.statuses(p.control, "DERC3").slice(0, 2)).toEqual([1, 2]);
    });
  });
}
