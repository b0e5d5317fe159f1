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

/** `YYYY-MM-DD` of the instant `ms` in `timeZone` (an IANA name such as Europe/Rome). */
export function localDay(ms: number, timeZone: string): string {
  return formatterOf(timeZone).format(ms);
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
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
