import { GRID_COMMAND_KINDS, GRID_COMMAND_MODES } from "@ess/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitUntil } from "../helpers/reminders.ts";
import { type GridWorld, NMIS, startGridWorld } from "./grid-world.ts";

// Procedures ALL-18 (responses 1 → 2 → 3 for a control that runs, 1 → 6 for one cancelled before it
// starts) and GEN-10 (primacy: the lower-priority program's event gets 7 when overtaken).
describe("grid client: controls and responses", () => {
  let world: GridWorld;
  let runMrid: string;
  let cancelMrid: string;
  let lowMrid: string;
  beforeAll(async () => {
    world = await startGridWorld({ factor: 60, sites: [{ sn: "CTRLSITE1", nmi: NMIS[0] }] });
    const program = world.sim.control.createProgram({ primacy: 0 });
    world.sim.control.setDefaultControl(program.id, {
      DERControlBase: { opModExpLimW: { value: 15, multiplier: 2 }, opModImpLimW: { value: 15, multiplier: 2 } },
      setGradW: 27,
    });
    const now = world.sim.control.now();
    runMrid = world.sim.control.createControl({
      programId: program.id,
      // Three real seconds after the low-priority event's start, so that it is seen started first
      // on a busy machine too.
      start: now + 210,
      duration: 120,
      base: { opModExpLimW: { value: 0, multiplier: 0 }, opModImpLimW: { value: 0, multiplier: 0 } },
    }).mRID;
    const later = world.sim.control.createControl({
      programId: program.id,
      start: now + 3600,
      duration: 600,
      base: { opModEnergize: false },
    });
    cancelMrid = later.mRID;
    // A program of lower priority whose event starts first and is overtaken by the primacy-0 one.
    const lowProgram = world.sim.control.createProgram({ primacy: 5 });
    lowMrid = world.sim.control.createControl({
      programId: lowProgram.id,
      start: now + 30,
      duration: 600,
      base: { opModExpLimW: { value: 3, multiplier: 3 } },
    }).mRID;
    await waitUntil(
      () => world.sim.control.responses().some((r) => r.response.subject === cancelMrid),
      15_000,
      "first responses",
    );
    world.sim.control.cancelControl(later.id);
    await waitUntil(
      () => world.sim.control.responses().filter((r) => r.response.subject === runMrid).length >= 3,
      20_000,
      "the running control's three responses",
    );
    await waitUntil(
      () => world.sim.control.responses().filter((r) => r.response.subject === cancelMrid).length >= 2,
      10_000,
      "the cancellation",
    );
    // The console stores a response once the utility has taken it.
    await waitUntil(
      async () =>
        (
          await world.db.query(
            "SELECT 1 FROM grid_exchange WHERE resource = 'DERControlResponse' UNION ALL SELECT 1 FROM grid_command WHERE response_status IN (3, 6)",
          )
        ).rows.length === 10,
      5_000,
      "responses stored",
    );
  });
  afterAll(() => world?.close());

  const statuses = (mrid: string) => world.sim.control.statusesOf(mrid);

  it("answers received, started, completed, in order, once each, for the site's LFDI", () => {
    expect(statuses(runMrid)).toEqual([1, 2, 3]);
    const [received, started, completed] = world.sim.control.responses().filter((r) => r.response.subject === runMrid);
    expect(received?.response.endDeviceLFDI).toBe(world.siteLfdi("CTRLSITE1"));
    expect(received?.responseSet).toBe("site_control");
    // Started at the start, completed at the end (server time, a poll period of slack).
    const control = world.sim.control.controls().find((c) => c.mRID === runMrid);
    expect(started?.receivedAt).toBeGreaterThanOrEqual((control?.start ?? 0) * 1000);
    expect(completed?.receivedAt).toBeGreaterThanOrEqual(((control?.start ?? 0) + (control?.duration ?? 0)) * 1000);
  });

  it("supersedes a lower-priority program's event once a higher-priority one is in force", () => {
    expect(statuses(lowMrid)).toEqual([1, 2, 7]);
    const superseded = world.sim.control.responses().find((r) => r.response.subject === lowMrid && r.response.status === 7);
    const winner = world.sim.control.controls().find((c) => c.mRID === runMrid);
    expect(superseded?.receivedAt).toBeGreaterThanOrEqual((winner?.start ?? 0) * 1000);
  });

  it("answers received then cancelled for a control cancelled before its start", () => {
    expect(statuses(cancelMrid)).toEqual([1, 6]);
  });

  it("stores every control as a grid command with its mode, and the default control", async () => {
    const { rows } = await world.db.query<{
      mrid: string;
      kind: number;
      mode: number;
      response: number | null;
      duration: number | null;
      controls: Record<string, unknown>;
    }>(`SELECT mrid, kind, mode, response_status AS response, duration_s AS duration, controls FROM grid_command ORDER BY id`);
    const run = rows.find((r) => r.mrid === runMrid);
    expect(run).toMatchObject({ kind: GRID_COMMAND_KINDS.event, mode: GRID_COMMAND_MODES.purePv, response: 3, duration: 120 });
    expect(rows.find((r) => r.mrid === cancelMrid)).toMatchObject({ mode: GRID_COMMAND_MODES.emergency, response: 6 });
    const fallback = rows.find((r) => r.kind === GRID_COMMAND_KINDS.default);
    expect(fallback?.mode).toBe(GRID_COMMAND_MODES.sell);
    expect(fallback?.controls).toMatchObject({ opModExpLimW: { value: 15, multiplier: 2 }, setGradW: 27 });
    const { rows: site } = await world.db.query<{ at: Date | null }>("SELECT last_command_at AS at FROM grid_site");
    expect(site[0]?.at).toBeInstanceOf(Date);
  });

  it("counts as applied the events that started, not the one cancelled before its start", async () => {
    const { rows } = await world.db.query<{ mrid: string; applied: boolean }>(
      "SELECT mrid, applied_at IS NOT NULL AS applied FROM grid_command",
    );
    const applied = (mrid: string) => rows.find((r) => r.mrid === mrid)?.applied;
    expect([applied(runMrid), applied(lowMrid), applied(cancelMrid)]).toEqual([true, true, false]);
  });

  it("records the responses it sent as DERControlResponse documents", async () => {
    const { rows } = await world.db.query<{ body: string }>(
      "SELECT body FROM grid_exchange WHERE direction = 2 AND resource = 'DERControlResponse' ORDER BY id",
    );
    expect(rows.length).toBe(8);
    expect(rows[0]?.body).toMatch(/<status>1<\/status>/);
  });
});
