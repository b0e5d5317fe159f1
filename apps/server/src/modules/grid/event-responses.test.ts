import { randomisedSpan } from "@ess/domain";
import { EVENT_STATUS, RESPONSE_STATUS } from "@ess/sep2";
import { describe, expect, it } from "vitest";
import { dueResponse } from "./event-responses.ts";

const T0 = Date.UTC(2026, 0, 1);
const event = (over: Partial<Parameters<typeof dueResponse>[0]> = {}) => ({
  mrid: "A",
  primacy: 1,
  eventStatus: EVENT_STATUS.scheduled,
  responseStatus: RESPONSE_STATUS.received as number | null,
  startAt: new Date(T0),
  durationS: 600,
  ...over,
});

describe("dueResponse", () => {
  it("starts at the start and completes at the end, not before", () => {
    expect(dueResponse(event(), T0 - 1)).toBeNull();
    expect(dueResponse(event(), T0)).toBe(RESPONSE_STATUS.started);
    expect(dueResponse(event({ responseStatus: RESPONSE_STATUS.started }), T0 + 599_999)).toBeNull();
    expect(dueResponse(event({ responseStatus: RESPONSE_STATUS.started }), T0 + 600_000)).toBe(RESPONSE_STATUS.completed);
  });

  it("starts an event seen only after its end before completing it", () => {
    expect(dueResponse(event(), T0 + 700_000)).toBe(RESPONSE_STATUS.started);
  });

  it("answers the utility's cancellation and supersession", () => {
    expect(dueResponse(event({ eventStatus: EVENT_STATUS.cancelled }), T0 - 5)).toBe(RESPONSE_STATUS.cancelled);
    expect(dueResponse(event({ eventStatus: EVENT_STATUS.superseded }), T0)).toBe(RESPONSE_STATUS.superseded);
  });

  it("supersedes an event while one of a higher-priority program is in force, and only then", () => {
    const low = event({ mrid: "LOW", primacy: 2 });
    const high = event({ mrid: "HIGH", primacy: 1, startAt: new Date(T0 + 300_000) });
    expect(dueResponse(low, T0, [low, high])).toBe(RESPONSE_STATUS.started);
    expect(dueResponse({ ...low, responseStatus: RESPONSE_STATUS.started }, T0 + 300_000, [low, high])).toBe(
      RESPONSE_STATUS.superseded,
    );
    expect(dueResponse(high, T0 + 300_000, [low, high])).toBe(RESPONSE_STATUS.started);
    // A cancelled higher-priority event outranks nobody; equal primacy neither.
    expect(dueResponse(low, T0 + 300_000, [low, { ...high, eventStatus: EVENT_STATUS.cancelled }])).toBe(RESPONSE_STATUS.started);
    expect(dueResponse(low, T0 + 300_000, [low, { ...high, primacy: 2 }])).toBe(RESPONSE_STATUS.started);
  });

  it("starts an event partly in force: higher-priority events set only some of its modes (GEN-10)", () => {
    const exportLow = event({ mrid: "LOW", primacy: 2, controls: { opModExpLimW: { value: 10, multiplier: 3 } } });
    const genHigh = event({
      mrid: "HIGH",
      primacy: 1,
      controls: { opModGenLimW: { value: 0, multiplier: 0 }, opModConnect: false },
    });
    expect(dueResponse(exportLow, T0, [exportLow, genHigh])).toBe(RESPONSE_STATUS.started);
    const both = event({
      mrid: "LOW",
      primacy: 2,
      controls: { opModExpLimW: { value: 5, multiplier: 3 }, opModGenLimW: { value: 3, multiplier: 3 } },
    });
    const exportHigh = event({ mrid: "HIGH", primacy: 1, controls: { opModExpLimW: { value: 0, multiplier: 0 } } });
    expect(dueResponse(both, T0, [both, exportHigh])).toBe(RESPONSE_STATUS.started);
    // Every mode it sets is set above it: superseded, by one event or by two together.
    expect(dueResponse(exportLow, T0, [exportLow, exportHigh])).toBe(RESPONSE_STATUS.superseded);
    expect(dueResponse(both, T0, [both, exportHigh, { ...genHigh, mrid: "HIGH2" }])).toBe(RESPONSE_STATUS.superseded);
  });
});

describe("dueResponse with randomisation", () => {
  it("starts and completes at the site's randomised times, as its control schedule has them", () => {
    const seed = "SITE-LFDI";
    const random = event({ randomizeStart: 120, randomizeDuration: 60 });
    const shifted = randomisedSpan(seed, { mrid: "A", start: T0, durationS: 600, randomizeStart: 120, randomizeDuration: 60 });
    expect(shifted.start).toBeGreaterThan(T0);
    expect(dueResponse(random, shifted.start - 1, [], seed)).toBeNull();
    expect(dueResponse(random, shifted.start, [], seed)).toBe(RESPONSE_STATUS.started);
    const started = { ...random, responseStatus: RESPONSE_STATUS.started as number | null };
    expect(dueResponse(started, shifted.end - 1, [], seed)).toBeNull();
    expect(dueResponse(started, shifted.end, [], seed)).toBe(RESPONSE_STATUS.completed);
  });
});

describe("dueResponse with the device's take of the event", () => {
  const exportLimit = { opModExpLimW: { value: 2, multiplier: 3 } };
  const limited = event({ controls: exportLimit });
  const started = { ...limited, responseStatus: RESPONSE_STATUS.started as number | null };
  const taken = { outcome: "acknowledged", notApplicable: [] } as const;

  it("completes an event the device took, as without a take", () => {
    expect(dueResponse(limited, T0, [], "", taken)).toBe(RESPONSE_STATUS.started);
    expect(dueResponse(started, T0 + 1, [], "", taken)).toBeNull();
    expect(dueResponse(started, T0 + 600_000, [], "", taken)).toBe(RESPONSE_STATUS.completed);
  });

  it("opts out at once when the device refused the control, before or after started", () => {
    const refused = { outcome: "refused", notApplicable: [] } as const;
    expect(dueResponse(limited, T0, [], "", refused)).toBe(RESPONSE_STATUS.optOut);
    expect(dueResponse(started, T0 + 1, [], "", refused)).toBe(RESPONSE_STATUS.optOut);
    // Final: nothing follows an opt-out.
    expect(dueResponse({ ...limited, responseStatus: RESPONSE_STATUS.optOut }, T0 + 600_000, [], "", refused)).toBeNull();
  });

  it("ends without participation an event the device never took (offline, its writes still queued)", () => {
    const queued = { outcome: "queued", notApplicable: [] } as const;
    expect(dueResponse(started, T0 + 1, [], "", queued)).toBeNull();
    expect(dueResponse(started, T0 + 600_000, [], "", queued)).toBe(RESPONSE_STATUS.completedNoParticipation);
    // Unanswered is not known untaken: its answer may have been lost.
    expect(dueResponse(started, T0 + 600_000, [], "", { outcome: "timedOut", notApplicable: [] })).toBe(
      RESPONSE_STATUS.completed,
    );
  });

  it("answers not applicable when none of the event's modes is within the product's reach, partly opted out when some are", () => {
    expect(dueResponse(limited, T0, [], "", { outcome: "none", notApplicable: ["opModExpLimW"] })).toBe(
      RESPONSE_STATUS.notApplicable,
    );
    const both = event({ controls: { ...exportLimit, opModStorageTargetW: { value: 5, multiplier: 3 } } });
    const take = { outcome: "acknowledged", notApplicable: ["opModStorageTargetW"] } as const;
    expect(dueResponse(both, T0, [], "", take)).toBe(RESPONSE_STATUS.started);
    const bothStarted = { ...both, responseStatus: RESPONSE_STATUS.started as number | null };
    expect(dueResponse(bothStarted, T0 + 1, [], "", take)).toBe(RESPONSE_STATUS.partialOptOut);
    // Still open: completed at its end.
    const partly = { ...both, responseStatus: RESPONSE_STATUS.partialOptOut as number | null };
    expect(dueResponse(partly, T0 + 1, [], "", take)).toBeNull();
    expect(dueResponse(partly, T0 + 600_000, [], "", take)).toBe(RESPONSE_STATUS.completed);
    // A field another event set (merged into the control) is not this event's business.
    expect(dueResponse(bothStarted, T0 + 1, [], "", { outcome: "acknowledged", notApplicable: ["opModGenLimW"] })).toBeNull();
  });
});
