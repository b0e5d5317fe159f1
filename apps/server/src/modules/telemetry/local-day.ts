/**
 * Calendar days in a device's own time zone. Intl applies the IANA rules, so a reading belongs to
 * the right day on the 23- and 25-hour days of a daylight-saving change.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    // en-CA formats as YYYY-MM-DD.
    f = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    formatters.set(timeZone, f);
  }
  return f;
}

/**
 * Local midnight and every offset change fall on a quarter hour of UTC in today's zones, so all
 * instants of one UTC quarter hour share a local day. Ingest asks for every reading; the last
 * answer per zone spares formatting a date each time.
 */
const QUARTER_HOUR_MS = 15 * 60_000;
const lastDay = new Map<string, { slot: number; day: string }>();

/** `YYYY-MM-DD` of the instant `ms` in `timeZone` (an IANA name such as Europe/Rome). */
export function localDay(ms: number, timeZone: string): string {
  const slot = Math.floor(ms / QUARTER_HOUR_MS);
  const last = lastDay.get(timeZone);
  if (last?.slot === slot) return last.day;
  const day = formatterOf(timeZone).format(ms);
  lastDay.set(timeZone, { slot, day });
  return day;
}

/** Whether `timeZone` is an IANA time zone this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatterOf(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** `YYYY-MM-DD` of the UTC day of `ms` (the history's partition day). */
export const utcDay = (ms: number) => localDay(ms, "UTC");
