import type { SocLimitKind } from "./layout.ts";

/**
 * A device's schedule as a user thinks of it; the registers of the schedule page are its storage
 * (`mapping.ts`). Times are "HH:mm", dates "YYYY-MM-DD", months 1–12, weekdays 1–7 (Monday
 * first), modes codes of `systemModeFilter`.
 */
export interface ScheduleWindow {
  /** The period of the day, start and end. */
  start: string;
  end: string;
  /** The system mode inside the period, and outside it. */
  modeInside: number;
  modeOutside: number;
}

export interface ScheduleQuarter {
  /** Months of the year the quarter covers, first and last. */
  months: { start: number; end: number };
  /** Weekdays of the "in range" part, first and last. */
  weekdays: { start: number; end: number };
  /** What happens on the weekdays of the range, and on the other days of the quarter. */
  inRange: ScheduleWindow;
  outOfRange: ScheduleWindow;
}

export interface ScheduleSpecialDate {
  date: string;
  window: ScheduleWindow;
}

export interface SocLimit {
  /** The SOC limit in %, and whether the mode's management uses it. */
  soc: number;
  enabled: boolean;
}

export interface DeviceSchedule {
  quarters: ScheduleQuarter[];
  specialDates: ScheduleSpecialDate[];
  /** The system mode of each hour of the day, 0 h to 23 h. */
  hourly: number[];
  soc: Record<SocLimitKind, SocLimit>;
}
