import type { Locale } from "@ess/domain/locales.ts";

/**
 * One way of writing dates and times per console language (dayjs tokens), for every list, detail,
 * dialog and date picker: day order as the language writes it, 24-hour times, fixed widths so
 * columns line up. Times of day the user types (tariff periods, schedules) are HH:mm everywhere.
 */
export const DATE_PATTERNS: Readonly<
  Record<Locale, { date: string; dateTime: string; month: string; year: string; time: string; minute: string }>
> = {
  "zh-CN": {
    date: "YYYY-MM-DD",
    dateTime: "YYYY-MM-DD HH:mm:ss",
    month: "YYYY-MM",
    year: "YYYY",
    time: "HH:mm:ss",
    minute: "HH:mm",
  },
  "en-US": {
    date: "MM/DD/YYYY",
    dateTime: "MM/DD/YYYY HH:mm:ss",
    month: "MM/YYYY",
    year: "YYYY",
    time: "HH:mm:ss",
    minute: "HH:mm",
  },
  it: { date: "DD/MM/YYYY", dateTime: "DD/MM/YYYY HH:mm:ss", month: "MM/YYYY", year: "YYYY", time: "HH:mm:ss", minute: "HH:mm" },
  es: { date: "DD/MM/YYYY", dateTime: "DD/MM/YYYY HH:mm:ss", month: "MM/YYYY", year: "YYYY", time: "HH:mm:ss", minute: "HH:mm" },
  ja: { date: "YYYY/MM/DD", dateTime: "YYYY/MM/DD HH:mm:ss", month: "YYYY/MM", year: "YYYY", time: "HH:mm:ss", minute: "HH:mm" },
};
