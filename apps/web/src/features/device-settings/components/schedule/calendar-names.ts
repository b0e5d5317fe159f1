/** Month names 1–12 in the user's language (the browser's calendar data, nothing to translate). */
export function monthNames(language: string, width: "long" | "short" = "long"): string[] {
  const format = new Intl.DateTimeFormat(language, { month: width, timeZone: "UTC" });
  return Array.from({ length: 12 }, (_, i) => format.format(new Date(Date.UTC(2024, i, 1))));
}

/** Weekday names 1–7, Monday first (the schedule's weekday numbering). */
export function weekdayNames(language: string): string[] {
  const format = new Intl.DateTimeFormat(language, { weekday: "long", timeZone: "UTC" });
  // 1 January 2024 was a Monday.
  return Array.from({ length: 7 }, (_, i) => format.format(new Date(Date.UTC(2024, 0, 1 + i))));
}
