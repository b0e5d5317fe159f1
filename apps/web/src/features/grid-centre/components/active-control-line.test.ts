import type { IeeeActiveControl } from "@ess/contracts";
import { loadAllResources } from "@ess/i18n/node";
import dayjs from "dayjs";
import i18next from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { activeControlLine } from "./active-control-line.ts";

const i18n = i18next.createInstance();
beforeAll(() => i18n.init({ resources: loadAllResources(), lng: "en-US", interpolation: { escapeValue: false } }));

const now = dayjs("2026-11-27T12:00:00").valueOf();
const event: IeeeActiveControl = {
  control: { opModExpLimW: { value: 2, multiplier: 3 } },
  kind: "event",
  mrid: "EV01",
  programMrid: "PROG01",
  primacy: 1,
  since: null,
  until: dayjs("2026-11-27T14:30:00").toISOString(),
};

describe("the control in force, as the IEEE device list shows it", () => {
  it("says what an event asks and until when, today by the time alone", () => {
    expect(activeControlLine(event, i18n.getFixedT("en-US"), { now, locale: "en-US" })).toBe("Export limit 2 kW until 14:30");
    const tomorrow = { ...event, until: dayjs("2026-11-28T09:05:00").toISOString() };
    expect(activeControlLine(tomorrow, i18n.getFixedT("en-US"), { now, locale: "en-US" })).toBe(
      "Export limit 2 kW until 11/28/2026 09:05",
    );
  });

  it("marks a default, lists every mode, and says when it sets no limit", () => {
    const fallback: IeeeActiveControl = {
      ...event,
      kind: "default",
      until: null,
      control: { opModExpLimW: { value: 15, multiplier: 2 }, opModImpLimW: { value: 0, multiplier: 0 } },
    };
    expect(activeControlLine(fallback, i18n.getFixedT("en-US"), { now, locale: "en-US" })).toBe(
      "Default: Export limit 1.5 kW · Import limit 0 kW",
    );
    expect(activeControlLine({ ...fallback, control: { setGradW: 27 } }, i18n.getFixedT("es"), { now, locale: "es" })).toBe(
      "Predeterminado: Sin límites",
    );
  });
});
