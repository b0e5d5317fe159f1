/** Local calendar and clock of a site's time zone (IANA rules, so DST days have 23 or 25 hours). */
export interface LocalTime {
  /** YYYY-MM-DD */
  day: string;
  /** Hours since local midnight as the clock shows them, e.g. 13.5 at half past one. */
  hour: number;
  weekend: boolean;
  year: number;
  month: number;
  dayOfMonth: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

export function localTime(at: number, timeZone: string): LocalTime {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      weekday: "short",
      hourCycle: "h23",
    });
    formatters.set(timeZone, f);
  }
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(at)) parts[p.type] = p.value;
  const year = Number(parts.year);
  const month = Number(parts.month);
  const dayOfMonth = Number(parts.day);
  const hour = Number(parts.hour);
  const minute = Number(parts.minute);
  const second = Number(parts.second);
  return {
    day: `${parts.year}-${parts.month}-${parts.day}`,
    hour: hour + minute / 60 + second / 3600,
    weekend: parts.weekday === "Sat" || parts.weekday === "Sun",
    year,
    month,
    dayOfMonth,
    minute,
    second,
  };
}
