import { on, type Procedure } from "@ess/utility-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allStepsComplete } from "./checks.ts";
import { type ProcedureWorld, programWithDefault, runProcedureWorld } from "./procedure-world.ts";

// ALL-04 Client Registration and PIN Validation: the utility registered the site with PIN 111115,
// the installer's PIN; after reading the Registration the client keeps operating the site.
const ALL_04: Procedure = {
  start: ["GET-REGISTRATION"],
  steps: {
    "GET-REGISTRATION": { event: on.get("/edev/*/rg"), enables: ["WAIT-TEST-END"] },
    "WAIT-TEST-END": { event: on.wait(120), finish: true },
  },
};

describe("ALL-04 Client Registration and PIN Validation", () => {
  let p: ProcedureWorld;
  beforeAll(async () => {
    p = await runProcedureWorld({
      procedure: ALL_04,
      site: { outOfBand: { pin: 111115 } },
      preconditions: [programWithDefault({ impW: 0, expW: 0 })],
    });
  });
  afterAll(() => p?.world.close());

  it("completes every step", () => {
    allStepsComplete(p.run, ["GET-REGISTRATION", "WAIT-TEST-END"]);
  });

  it("keeps communicating for the site: DER list, programs and DER descriptions in the 120 s after", () => {
    const edev = `/edev/${p.control.endDevices()[0]?.id}`;
    const rg = p.run.completed[0]?.request;
    const later = p.control.requests({ after: rg?.seq }).filter((r) => r.path.startsWith(`${edev}/`));
    expect(later.some((r) => r.path === `${edev}/der`)).toBe(true);
    expect(later.some((r) => r.path.endsWith("/derp"))).toBe(true);
    expect(later.filter((r) => r.method === "PUT").length).toBeGreaterThan(0);
    expect(p.world.alarms).toEqual([]);
  });
});
