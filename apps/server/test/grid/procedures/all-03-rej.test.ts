import { on, type Procedure } from "@ess/utility-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allStepsComplete } from "./checks.ts";
import { type ProcedureWorld, programWithDefault, runProcedureWorld, SITE_SN } from "./procedure-world.ts";

// ALL-03-REJ Client rejection of incorrect PIN: the utility registered the site with PIN 332211;
// the installer's PIN is 111115. After reading the Registration the client stops talking for the site.
const ALL_03_REJ: Procedure = {
  start: ["GET-REGISTRATION"],
  steps: {
    "GET-REGISTRATION": { event: on.get("/edev/*/rg"), enables: ["WAIT-TEST-END"] },
    "WAIT-TEST-END": { event: on.wait(120), finish: true },
  },
};

describe("ALL-03-REJ Client rejection of incorrect PIN", () => {
  let p: ProcedureWorld;
  beforeAll(async () => {
    p = await runProcedureWorld({
      procedure: ALL_03_REJ,
      site: { outOfBand: { pin: 332211 } },
      preconditions: [programWithDefault({ impW: 0, expW: 0 })],
    });
  });
  afterAll(() => p?.world.close());

  it("completes every step", () => {
    allStepsComplete(p.run, ["GET-REGISTRATION", "WAIT-TEST-END"]);
  });

  it("sends nothing for the site after the Registration read: no DER list, programs or descriptions", () => {
    const edev = `/edev/${p.control.endDevices()[0]?.id}`;
    const rg = p.run.completed[0]?.request;
    const later = p.control.requests({ after: rg?.seq }).filter((r) => r.path.startsWith(edev));
    expect(later).toEqual([]);
    expect(p.control.derWrites()).toEqual([]);
    expect(p.control.requests({ method: "POST", path: "/edev" })).toEqual([]);
    expect(p.world.alarms).toEqual([expect.objectContaining({ sn: SITE_SN })]);
  });
});
