import { ValidationError } from "../../http/errors.ts";

const DAY_MS = 86_400_000;
// Widest ranges per query type (days, months, years), so one call cannot scan a decade of days.
const MAX_SPAN_DAYS = { "0": 62, "1": 731, "2": 3660 } as const;

/** Refuses an end before the start (spec §5 year rules) and a range wider than its type allows. */
export function checkDateRange(type: "0" | "1" | "2", startDate: string, endDate: string) {
  const span = (Date.parse(endDate) - Date.parse(startDate)) / DAY_MS;
  if (!(span >= 0)) {
    throw new ValidationError([{ field: "endDate", key: "telemetry:endBeforeStart", values: { field: "endDate" } }]);
  }
  if (span > MAX_SPAN_DAYS[type]) {
    throw new ValidationError([
      { field: "endDate", key: "telemetry:rangeTooLong", values: { field: "endDate", days: MAX_SPAN_DAYS[type] } },
    ]);
  }
}
