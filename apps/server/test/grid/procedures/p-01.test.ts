import { on, type Procedure, type UtilityControl } from "@ess/utility-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NMIS } from "../grid-world.ts";
import { allStepsComplete } from "./checks.ts";
import { type ProcedureWorld, runProcedureWorld, SITE_SN } from "./procedure-world.ts";
import { TaggedControls } from "./tagged-controls.ts";

// P-01 Multiple EndDevice shared DERControls: the aggregator has two sites (two EndDevices); both
// are given the same programs and the same control (one mRID). Each site answers it for itself,
// received, started and completed, at its own EndDevice's response list.

const SECOND_SN = "PROCSITE2";
const RSP = "/edev/*/rsps/site_control/rsp";
const c = new TaggedControls();

/** response-contents, latest, posted at the `index`th EndDevice (0: /edev/1, 1: /edev/2). */
const answered = (index: number, status: number) => (control: UtilityControl) => {
  const last = control.responses().at(-1);
  const device = control.endDevices().sort((a, b) => a.id - b.id)[index];
  return last?.response.status === status && last.endDeviceId === device?.id && last.response.subject === c.mrids.get("DERC1");
};

const STEPS = ["EDEV1", "EDEV2"].flatMap((edev, index) =>
  (
    [
      ["RECEIVED", 1],
      ["STARTED", 2],
      ["COMPLETED", 3],
    ] as const
  ).map(([what, status]) => [`POST-${edev}-RESPONSE-${what}`, { event: on.postServed(RSP, answered(index, status)) }] as const),
);
const P_01: Procedure = { start: STEPS.map(([name]) => name), steps: Object.fromEntries(STEPS) };

describe("P-01 Multiple EndDevice shared DERControls", () => {
  let p: ProcedureWorld;
  beforeAll(async () => {
    p = await runProcedureWorld({
      procedure: P_01,
      timeoutMs: 25_000,
      moreSites: [{ sn: SECOND_SN, nmi: NMIS[1] }],
      preconditions: [
        ({ control }) => {
          control.createProgram({ primacy: 1, fsaId: 1 });
          control.createProgram({ primacy: 2, fsaId: 1 });
        },
        // Two minutes ahead: both sites are registered before it starts.
        c.create("DERC1", 0, 120, { expW: 0, impW: 0 }, 120),
      ],
    });
  }, 40_000);
  afterAll(() => p?.world.close());
  const lfdis = () => [p.world.siteLfdi(SITE_SN), p.world.siteLfdi(SECOND_SN)];

  it("end-device-count: exactly the aggregator's two sites are registered", () => {
    expect(
      p.control
        .endDevices()
        .map((d) => d.lfdi)
        .sort(),
    ).toEqual(lfdis().sort());
  });

  it("completes every step: each EndDevice answered the shared control received, started, completed", () => {
    allStepsComplete(p.run, Object.keys(P_01.steps));
    for (const lfdi of lfdis()) {
      const device = p.control.endDevices().find((d) => d.lfdi === lfdi);
      const own = p.control.responses().filter((r) => r.endDeviceId === device?.id);
      expect(own.map((r) => [r.response.subject, r.response.status, r.response.endDeviceLFDI])).toEqual(
        [1, 2, 3].map((status) => [c.mrids.get("DERC1"), status, lfdi]),
      );
    }
  });
});
