import { lfdiWithPen } from "@ess/domain/grid/identity.ts";
import { decodeAs, EVENT_STATUS } from "@ess/sep2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compressedClock } from "../src/clock.ts";
import { startControlPort } from "../src/control-http.ts";
import { sep, startTestUtility, type TestUtility } from "./helpers.ts";

// 600 server seconds per real second: a minute of the procedure passes in 100 ms.
const FACTOR = 600;
const START_MS = 1_764_230_400_000;

describe("utility server: programs, controls, rates and its clock", () => {
  let utility: TestUtility;
  let edev: number;
  beforeAll(async () => {
    utility = await startTestUtility(compressedClock({ factor: FACTOR, startAt: START_MS }));
    edev = utility.sim.control.registerEndDevice({
      lfdi: lfdiWithPen("00000000000000000000000000000B01", 32473),
      aggregatorLfdi: utility.aggregatorLfdi,
    }).id;
  });
  afterAll(() => utility?.sim.close());

  it("runs the server's clock faster by the factor while rates on the wire keep their values", async () => {
    const before = decodeAs((await sep(utility, { path: "/tm" })).body, "Time").currentTime;
    expect(before).toBeGreaterThanOrEqual(START_MS / 1000);
    const realStart = Date.now();
    await utility.sim.control.clock.sleep(60_000);
    // A real minute would be 60 000 ms; compressed it is about 100 ms (with room for a loaded machine).
    expect(Date.now() - realStart).toBeLessThan(10_000);
    const after = decodeAs((await sep(utility, { path: "/tm" })).body, "Time").currentTime;
    expect(after - before).toBeGreaterThanOrEqual(60);
    expect(decodeAs((await sep(utility, { path: "/dcap" })).body, "DeviceCapability").pollRate).toBe(300);
  });

  it("lists programs by primacy under their function set assignments, with their default control", async () => {
    const { control } = utility.sim;
    const low = control.createProgram({ primacy: 2, fsaId: 1, description: "Network" });
    const high = control.createProgram({ primacy: 1, fsaId: 2, description: "Emergency" });
    control.setDefaultControl(low.id, {
      DERControlBase: {
        opModEnergize: true,
        opModExpLimW: { multiplier: 0, value: 0 },
        opModImpLimW: { multiplier: 0, value: 0 },
      },
      setGradW: 27,
    });

    const fsa = decodeAs((await sep(utility, { path: `/edev/${edev}/fsa?l=10` })).body, "FunctionSetAssignmentsList");
    expect(fsa.FunctionSetAssignments?.map((f) => f.href)).toEqual([`/edev/${edev}/fsa/1`, `/edev/${edev}/fsa/2`]);
    const inFirst = decodeAs((await sep(utility, { path: `/edev/${edev}/fsa/1/derp?l=10` })).body, "DERProgramList");
    expect(inFirst.DERProgram?.map((p) => p.mRID)).toEqual([low.mRID]);
    const all = decodeAs((await sep(utility, { path: `/edev/${edev}/derp?l=10` })).body, "DERProgramList");
    expect(all.DERProgram?.map((p) => [p.primacy, p.description])).toEqual([
      [1, "Emergency"],
      [2, "Network"],
    ]);
    expect(all.pollRate).toBe(60);
    const dderc = await sep(utility, { path: `/edev/${edev}/derp/${low.id}/dderc` });
    expect(dderc.body).toContain("<csipaus:opModExpLimW>");
    expect(decodeAs(dderc.body, "DefaultDERControl")).toMatchObject({
      setGradW: 27,
      DERControlBase: { opModEnergize: true, opModExpLimW: { multiplier: 0, value: 0 } },
    });
    expect((await sep(utility, { path: `/edev/${edev}/derp/${high.id}/dderc` })).status).toBe(404);
    const withDefault = (await sep(utility, { path: `/edev/${edev}/derp/${low.id}` })).body;
    expect(decodeAs(withDefault, "DERProgram").DefaultDERControlLink).toBeDefined();

    // Withdrawn (GEN-03's "cancelled" default): no link, no resource.
    control.removeDefaultControl(low.id);
    expect(
      decodeAs((await sep(utility, { path: `/edev/${edev}/derp/${low.id}` })).body, "DERProgram").DefaultDERControlLink,
    ).toBeUndefined();
    expect((await sep(utility, { path: `/edev/${edev}/derp/${low.id}/dderc` })).status).toBe(404);

    control.removeFunctionSetAssignment(edev, 2);
    expect(decodeAs((await sep(utility, { path: `/edev/${edev}/derp?l=10` })).body, "DERProgramList").all).toBe(1);
    expect((await sep(utility, { path: `/edev/${edev}/fsa/2` })).status).toBe(404);
  });

  it("serves a control as scheduled, then active, then gone once it ends; cancelled ones show as cancelled", async () => {
    const { control } = utility.sim;
    const program = control.programs().find((p) => p.fsaId === 1)?.id as number;
    // An hour ahead (6 s of real time at this factor), so the first GET surely sees it scheduled;
    // the clock is then moved, not waited on, to keep the test exact on a busy machine.
    const start = control.now() + 3600;
    const limit = control.createControl({
      programId: program,
      start,
      duration: 3600,
      base: { opModExpLimW: { multiplier: 3, value: 2 } },
    });
    const cancelled = control.createControl({
      programId: program,
      start: start + 7200,
      duration: 3600,
      base: { opModGenLimW: { multiplier: 0, value: 0 } },
    });
    control.cancelControl(cancelled.id);
    const path = `/edev/${edev}/derp/${program}/derc?s=0&l=10`;

    const scheduled = decodeAs((await sep(utility, { path })).body, "DERControlList");
    expect(scheduled.DERControl?.map((c) => [c.mRID, c.EventStatus.currentStatus])).toEqual([
      [limit.mRID, EVENT_STATUS.scheduled],
      [cancelled.mRID, EVENT_STATUS.cancelled],
    ]);
    expect(scheduled.DERControl?.[0]).toMatchObject({
      replyTo: `/edev/${edev}/rsps/site_control/rsp`,
      responseRequired: "03",
      interval: { start, duration: 3600 },
    });

    control.clock.setTime((start + 1) * 1000);
    const active = decodeAs((await sep(utility, { path: `/edev/${edev}/derp/${program}/actderc?l=10` })).body, "DERControlList");
    expect(active.DERControl?.map((c) => [c.mRID, c.EventStatus.currentStatus])).toEqual([[limit.mRID, EVENT_STATUS.active]]);

    control.clock.setTime((start + 3601) * 1000);
    const later = decodeAs((await sep(utility, { path })).body, "DERControlList");
    expect(later.DERControl?.map((c) => c.mRID)).toEqual([cancelled.mRID]);
  });

  it("publishes new poll and post rates at once, also when a step changes them as the request arrives", async () => {
    const { control } = utility.sim;
    control.setRates({ derpListPoll: 120 });
    expect(decodeAs((await sep(utility, { path: `/edev/${edev}/derp?l=1` })).body, "DERProgramList").pollRate).toBe(120);
    // As ALL-19 does: on the first GET of the FSA list, the rate drops from 300 to 60 s.
    const stop = control.onRequest((entry, phase) => {
      if (phase === "received" && entry.method === "GET" && /^\/edev\/\d+\/fsa$/.test(entry.path))
        control.setRates({ fsaListPoll: 60 });
    });
    expect(decodeAs((await sep(utility, { path: `/edev/${edev}/fsa?l=1` })).body, "FunctionSetAssignmentsList").pollRate).toBe(
      60,
    );
    stop();
    expect(() => control.setRates({ derpListPoll: 0 })).toThrow(RangeError);
    expect(control.requests({ method: "GET", path: "/edev/*/fsa" }).at(-1)).toMatchObject({ status: 200, query: "l=1" });
  });

  it("offers the same control over JSON on loopback", async () => {
    const port = await startControlPort(utility.sim.control);
    try {
      const post = (path: string, body: unknown) =>
        fetch(`${port.url}${path}`, { method: "POST", body: JSON.stringify(body), signal: AbortSignal.timeout(5_000) });
      expect((await post("/rates", { mupPost: 300 })).status).toBe(200);
      expect(utility.sim.control.rates().mupPost).toBe(300);
      expect((await post("/outage", { on: true })).status).toBe(200);
      expect((await sep(utility, { path: "/dcap" })).status).toBe(500);
      await post("/outage", { on: false });
      expect((await post("/end-devices", { lfdi: "not an lfdi" })).status).toBe(400);
      const requests = (await (
        await fetch(`${port.url}/requests?path=/dcap`, { signal: AbortSignal.timeout(5_000) })
      ).json()) as { status: number }[];
      expect(requests.at(-1)?.status).toBe(500);
      expect((await fetch(`${port.url}/nothing`, { signal: AbortSignal.timeout(5_000) })).status).toBe(404);
    } finally {
      await port.close();
    }
  });
});
