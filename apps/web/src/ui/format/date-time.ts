import { isLocale, type Locale, SOURCE_LOCALE } from "@ess/domain/locales.ts";
import dayjs, { type Dayjs } from "dayjs";
import timezone from "dayjs/plugin/timezone";
import utc from "dayjs/plugin/utc";
import i18next from "i18next";
import { DATE_PATTERNS } from "./date-patterns.ts";

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * The console's one way of showing dates and times (patterns in date-patterns.ts, which the date
 * pickers share through antd's locale). Every screen formats through here, never with
 * toLocaleString or a pattern of its own.
 *
 * Times are shown on the browser's clock unless a time zone is given: a device's day (its
 * statistics, its curves) is its own time zone's day and is shown in that zone, labelled so.
 */
export type Instant = string | number | Date | Dayjs;
export type Pattern = keyof (typeof DATE_PATTERNS)[Locale];

const localeOf = (locale?: string): Locale => {
  const lng = locale ?? i18next.language;
  return isLocale(lng) ? lng : SOURCE_LOCALE;
};

/** The pattern of a kind in a language (the console's current one unless given). */
export const datePattern = (kind: Pattern, locale?: string) => DATE_PATTERNS[localeOf(locale)][kind];

/** An instant in a time zone (an IANA name; the browser's own when absent or unknown). */
export function inZone(value: Instant, timeZone?: string | null): Dayjs {
  const d = dayjs(value);
  if (!timeZone) return d;
  try {
    return d.tz(timeZone);
  } catch {
    return d;
  }
}

/** Formats an instant; "—" for none. */
export function formatInstant(
  value: Instant | null | undefined,
  kind: Pattern = "dateTime",
  options: { timeZone?: string | null; locale?: string } = {},
): string {
  if (value === null || value === undefined || value === "") return "—";
  const d = inZone(value, options.timeZone);
  return d.isValid() ? d.format(datePattern(kind, options.locale)) : "—";
}

export const formatDateTime = (value: Instant | null | undefined, options?: { timeZone?: string | null; locale?: string }) =>
  formatInstant(value, "dateTime", options);
export const formatDate = (value: Instant | null | undefined, options?: { timeZone?: string | null; locale?: string }) =>
  formatInstant(value, "date", options);

/** Today's date (YYYY-MM-DD) in a time zone: a device's today is its own zone's. */
export const todayIn = (timeZone?: string | null) => inZone(Date.now(), timeZone).format("YYYY-MM-DD");

/** A calendar date (YYYY-MM-DD, a device's local day) as a picker value, free of any zone. */
export const calendarDay = (isoDate: string) => dayjs(isoDate, "YYYY-MM-DD");
