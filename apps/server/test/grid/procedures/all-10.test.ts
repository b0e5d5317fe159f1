import { on, type Procedure } from "@ess/utility-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allStepsComplete, READINGS, readingsAtLeast } from "./checks.ts";
import { type ProcedureWorld, programWithDefault, runProcedureWorld, setRates, telemetry } from "./procedure-world.ts";

// ALL-10 Update telemetry post rates: at the first MirrorUsagePointList read postRate becomes 300 s;
// ten minutes on, at the next read, 60 s again; the client keeps posting readings at each rate.
const ALL_10: Procedure = {
  start: ["GET-MUP-INITIAL"],
  steps: {
    "GET-MUP-INITIAL": { event: on.get("/mup"), actions: [setRates({ mupPost: 300 })], enables: ["WAIT-TILL-UPDATE"] },
    "WAIT-TILL-UPDATE": { event: on.wait(600), enables: ["GET-MUP-UPDATED"] },
    "GET-MUP-UPDATED": {
      event: on.get("/mup"),
      actions: [setRates({ mupPost: 60 })],
      enables: ["POST-MUP-1", "WAIT-TILL-END"],
    },
    "POST-MUP-1": { event: on.post("/mup/*") },
    "WAIT-TILL-END": { event: on.wait(90), finish: true },
  },
};

describe("ALL-10 Update telemetry post rates", () => {
  let p: ProcedureWorld;
  beforeAll(async () => {
    p = await runProcedureWorld({
      procedure: ALL_10,
      factor: 120,
      preconditions: [programWithDefault({ impW: 0, expW: 0 })],
      during: (world) => telemetry(world, 30),
    });
  });
  afterAll(() => p?.world.close());

  it("completes every step", () => {
    allStepsComplete(p.run, ["GET-MUP-INITIAL", "WAIT-TILL-UPDATE", "GET-MUP-UPDATED", "POST-MUP-1", "WAIT-TILL-END"]);
  });

  it("readings-*: at least three of each site and DER quantity", () => {
    for (const which of Object.values(READINGS)) readingsAtLeast(p.control, which, 3);
  });

  it("posts every 300 s while postRate is 300, averaging five minutes", () => {
    const [initial, updated] = [p.run.completed[0]?.at ?? 0, p.run.completed[2]?.at ?? 0];
    const slow = p.control.readings().filter((r) => r.receivedAt > initial && r.receivedAt < updated);
    for (const r of slow) {
      expect(r.reading.timePeriod?.duration).toBe(300);
      expect((r.reading.timePeriod?.start ?? 1) % 300).toBe(0);
    }
    // One round per 300 s interval: the intervals posted follow one another, none twice, none skipped.
    const starts = [...new Set(slow.map((r) => r.reading.timePeriod?.start ?? 0))].sort((x, y) => x - y);
    expect(starts.length).toBeGreaterThanOrEqual(2);
    for (const gap of starts.slice(1).map((t, i) => t - (starts[i] as number))) expect(gap).toBe(300);
    const posts = p.control.requests({ method: "POST", path: "/mup/*" }).filter((r) => r.at > initial && r.at < updated);
    // Two mirrors a round; the first round (at the change) may already post its 300 s interval.
    expect(posts.length).toBeLessThanOrEqual(2 * (starts.length + 1));
  });
});
