import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  effectiveControl,
  eventSpan,
  randomOffsetS,
  GRID_EVENT_STATUSES as S,
  type ScheduleDefault,
  type ScheduleEvent,
} from "./control-schedule.ts";
import { controlParts } from "./control-summary.ts";

const T0 = Date.UTC(2026, 10, 27, 4, 0);
const MIN = 60_000;
const kw = (k: number) => ({ value: k, multiplier: 3 });
const seed = "A1B2C3D4E5F60718293A4B5C6D7E8F9000012345";

const dflt = (over: Partial<ScheduleDefault> = {}): ScheduleDefault => ({
  mrid: "D1",
  programMrid: "P1",
  primacy: 1,
  control: { opModExpLimW: kw(5), opModImpLimW: kw(7) },
  ...over,
});
const ev = (over: Partial<ScheduleEvent> = {}): ScheduleEvent => ({
  mrid: "E1",
  programMrid: "P1",
  primacy: 1,
  creationTime: T0 - MIN,
  start: T0,
  durationS: 600,
  status: S.scheduled,
  control: { opModExpLimW: kw(2) },
  ...over,
});
const at = (now: number, events: ScheduleEvent[], defaults: ScheduleDefault[] = [dflt()]) =>
  effectiveControl({ defaults, events, seed, now });

describe("a site's effective control", () => {
  it("is the default before and after an event, and the event (over the default) while it runs", () => {
    const events = [ev()];
    expect(at(T0 - MIN, events)).toEqual({
      active: { control: dflt().control, source: { kind: "default", mrid: "D1", programMrid: "P1", primacy: 1 } },
      until: T0,
    });
    const during = at(T0 + MIN, events);
    expect(during.active?.source).toEqual({ kind: "event", mrid: "E1", programMrid: "P1", primacy: 1 });
    // The event sets the export limit; the default's import limit still applies (per-mode fallback).
    expect(during.active?.control).toEqual({ opModExpLimW: kw(2), opModImpLimW: kw(7) });
    expect(during.until).toBe(T0 + 10 * MIN);
    expect(at(T0 + 10 * MIN, events)).toMatchObject({ active: { source: { kind: "default" } }, until: null });
  });

  it("is nothing at all without events or defaults, yet says when an event will start", () => {
    expect(at(T0 - MIN, [], [])).toEqual({ active: null, until: null });
    expect(at(T0 - MIN, [ev()], [])).toEqual({ active: null, until: T0 });
  });

  it("lets the lower primacy win, whatever the creation times", () => {
    const urgent = ev({
      mrid: "E2",
      programMrid: "P0",
      primacy: 0,
      creationTime: T0 - 60 * MIN,
      control: { opModExpLimW: kw(0) },
    });
    const r = at(T0 + MIN, [ev({ creationTime: T0 }), urgent]);
    expect(r.active?.source.mrid).toBe("E2");
    expect(r.active?.control.opModExpLimW).toEqual(kw(0));
  });

  it("takes each mode from the highest-ranked event in force that sets it (GEN-10)", () => {
    const generation = ev({ mrid: "E2", programMrid: "P0", primacy: 0, control: { opModGenLimW: kw(5), opModConnect: false } });
    const r = at(T0 + MIN, [ev(), generation]);
    expect(r.active?.source.mrid).toBe("E2");
    // The export limit of the lower-priority event stays in force beside the generation limit;
    // the import limit no event sets comes from the default.
    expect(r.active?.control).toEqual({ opModGenLimW: kw(5), opModConnect: false, opModExpLimW: kw(2), opModImpLimW: kw(7) });
    // Where both set the export limit, the higher-ranked one's holds.
    const both = at(T0 + MIN, [ev(), { ...generation, control: { opModExpLimW: kw(0) } }]);
    expect(both.active?.control.opModExpLimW).toEqual(kw(0));
  });

  it("lets the newer event win at equal primacy", () => {
    const newer = ev({ mrid: "E2", creationTime: T0, start: T0 + 2 * MIN, control: { opModExpLimW: kw(1) } });
    expect(at(T0 + MIN, [ev(), newer]).active?.source.mrid).toBe("E1");
    const r = at(T0 + 3 * MIN, [ev(), newer]);
    expect(r.active?.source.mrid).toBe("E2");
    // The newer one ends later than the older: the answer next changes when it ends, back to the default.
    expect(r.until).toBe(T0 + 12 * MIN);
  });

  it("leaves out events the utility cancelled or superseded", () => {
    for (const status of [S.cancelled, S.superseded]) {
      expect(at(T0 + MIN, [ev({ status })]).active?.source.kind).toBe("default");
    }
    expect(at(T0 + MIN, [ev({ status: S.active })]).active?.source.kind).toBe("event");
  });

  it("ends a cancellation with randomisation at the cancellation plus the site's own delay", () => {
    const cancelled = ev({ status: S.cancelledWithRandomization, statusAt: T0 + 2 * MIN, randomizeDuration: 120 });
    const delay = Math.abs(randomOffsetS(seed, "E1", "duration", 120));
    expect(eventSpan(cancelled, seed)).toEqual({ start: T0, end: T0 + 2 * MIN + delay * 1000 });
    expect(at(T0 + MIN, [cancelled]).until).toBe(T0 + 2 * MIN + delay * 1000);
  });

  it("takes the default of the lowest primacy program that has one", () => {
    const defaults = [dflt({ mrid: "D2", programMrid: "P2", primacy: 2 }), dflt({ mrid: "D0", programMrid: "P0", primacy: 0 })];
    expect(at(T0, [], defaults).active?.source).toMatchObject({ mrid: "D0", primacy: 0 });
  });

  it("shifts start and end by the site's randomisation, the same on every call", () => {
    const random = ev({ randomizeStart: 60, randomizeDuration: -30 });
    const span = eventSpan(random, seed);
    const shift = randomOffsetS(seed, "E1", "start", 60);
    expect(span?.start).toBe(T0 + shift * 1000);
    expect(span?.end).toBe(T0 + shift * 1000 + (600 + randomOffsetS(seed, "E1", "duration", -30)) * 1000);
    expect(eventSpan(random, seed)).toEqual(span);
  });

  it("spreads the sites' starts over the randomisation window", () => {
    const starts = new Set(Array.from({ length: 50 }, (_, i) => randomOffsetS(`site-${i}`, "E1", "start", 60)));
    expect(starts.size).toBeGreaterThan(20);
    for (const s of starts) expect(s >= 0 && s <= 60).toBe(true);
  });
});

const base = fc.record({ opModExpLimW: fc.integer({ min: 0, max: 20 }).map(kw) }, { requiredKeys: [] });
const event = fc
  .record({
    mrid: fc.string({ minLength: 1, maxLength: 4 }),
    primacy: fc.integer({ min: 0, max: 3 }),
    creationTime: fc.integer({ min: 0, max: 20 }).map((m) => T0 - m * MIN),
    start: fc.integer({ min: -30, max: 30 }).map((m) => T0 + m * MIN),
    durationS: fc.integer({ min: 0, max: 1800 }),
    status: fc.constantFrom(S.scheduled, S.active, S.cancelled, S.superseded, S.cancelledWithRandomization),
    statusAt: fc.integer({ min: -30, max: 30 }).map((m) => T0 + m * MIN),
    randomizeStart: fc.integer({ min: -300, max: 300 }),
    randomizeDuration: fc.integer({ min: -300, max: 300 }),
    control: base,
  })
  .map((e) => ({ ...e, programMrid: `P${e.primacy}` }));
const events = fc.uniqueArray(event, { selector: (e) => e.mrid, maxLength: 6 });
const defaults = fc.uniqueArray(
  fc
    .record({ primacy: fc.integer({ min: 0, max: 3 }), control: base })
    .map((d) => ({ ...d, mrid: `D${d.primacy}`, programMrid: `P${d.primacy}` })),
  { selector: (d) => d.primacy, maxLength: 3 },
);
const now = fc.integer({ min: -40, max: 40 }).map((m) => T0 + m * MIN);

describe("a site's effective control, for any schedule", () => {
  it("is an event in force, never cancelled or superseded, and none in force outranks it", () => {
    fc.assert(
      fc.property(events, defaults, now, (es, ds, t) => {
        const { active } = effectiveControl({ events: es, defaults: ds, seed, now: t });
        const live = es.filter((e) => {
          const span = eventSpan(e, seed);
          return span !== null && span.start <= t && t < span.end;
        });
        if (live.length === 0) {
          expect(active?.source.kind ?? "default").toBe("default");
          return;
        }
        const winner = es.find((e) => e.mrid === active?.source.mrid) as ScheduleEvent;
        expect(live).toContain(winner);
        expect(winner.status === S.cancelled || winner.status === S.superseded).toBe(false);
        for (const other of live) {
          expect(
            other.primacy > winner.primacy || (other.primacy === winner.primacy && other.creationTime <= winner.creationTime),
          ).toBe(true);
        }
        // The event's own modes are never overridden by a default.
        expect(active?.control).toMatchObject(winner.control);
      }),
    );
  });

  it("falls back to the lowest-primacy default exactly when no event is in force", () => {
    fc.assert(
      fc.property(defaults, now, (ds, t) => {
        const { active } = effectiveControl({ events: [], defaults: ds, seed, now: t });
        const lowest = Math.min(...ds.map((d) => d.primacy));
        expect(active?.source.primacy ?? null).toBe(ds.length ? lowest : null);
      }),
    );
  });

  it("does not change before `until`, and changes at it", () => {
    fc.assert(
      fc.property(events, defaults, now, fc.double({ min: 0, max: 1, noNaN: true }), (es, ds, t, f) => {
        const here = effectiveControl({ events: es, defaults: ds, seed, now: t });
        const horizon = here.until ?? t + 120 * MIN;
        const probe = Math.floor(t + f * (horizon - t - 1));
        if (probe >= t) expect(effectiveControl({ events: es, defaults: ds, seed, now: probe }).active).toEqual(here.active);
        if (here.until !== null)
          expect(effectiveControl({ events: es, defaults: ds, seed, now: here.until }).active).not.toEqual(here.active);
      }),
    );
  });

  it("does not depend on the order the controls are listed in", () => {
    fc.assert(
      fc.property(events, defaults, now, (es, ds, t) => {
        const a = effectiveControl({ events: es, defaults: ds, seed, now: t });
        const b = effectiveControl({ events: [...es].reverse(), defaults: [...ds].reverse(), seed, now: t });
        expect(b).toEqual(a);
      }),
    );
  });

  it("keeps randomised offsets inside the signed window", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.integer({ min: -3600, max: 3600 }), (s, m, bound) => {
        const o = randomOffsetS(s, m, "start", bound);
        expect(Number.isInteger(o) && Math.abs(o) <= Math.abs(bound) && (o === 0 || Math.sign(o) === Math.sign(bound))).toBe(
          true,
        );
      }),
    );
  });
});

describe("what a control in force asks, for the centre", () => {
  it("names each mode set, site-wide limits first, in kW or %", () => {
    expect(
      controlParts({
        opModLoadLimW: { value: 25, multiplier: 2 },
        opModExpLimW: { value: 2, multiplier: 3 },
        opModMaxLimW: 5000,
        opModEnergize: false,
        setGradW: 27,
      }),
    ).toEqual([
      { key: "deEnergise" },
      { key: "exportLimit", kw: 2 },
      { key: "loadLimit", kw: 2.5 },
      { key: "maxPower", percent: 50 },
    ]);
    // Energised and connected are the normal state: nothing to show.
    expect(controlParts({ opModEnergize: true, opModConnect: true, rampTms: 600 })).toEqual([]);
    expect(controlParts({ opModImpLimW: { value: 0, multiplier: 0 } })).toEqual([{ key: "importLimit", kw: 0 }]);
  });
});
