import { QUARTER_OFFSETS, SCHEDULE_LAYOUT, SPECIAL_DATE_OFFSETS } from "@ess/domain";

/**
 * The schedule an inverter leaves the factory with: the four quarters of the year (January–March,
 * …), every weekday, both periods the whole day (00:00–23:59), special dates the whole day. A
 * schedule the console's rules accept (spec §5), so a user can change one quarter at a time.
 */
export function factorySchedule(product: "single" | "three"): Record<string, number> {
  const { prefix, quarters, specialDates } = SCHEDULE_LAYOUT[product];
  const v: Record<string, number> = {};
  quarters.forEach((base, q) => {
    const at = (o: number, value: number) => {
      v[`${prefix}${base + o}`] = value;
    };
    at(QUARTER_OFFSETS.startMonth, q * 3 + 1);
    at(QUARTER_OFFSETS.endMonth, q * 3 + 3);
    at(QUARTER_OFFSETS.weekStart, 1);
    at(QUARTER_OFFSETS.weekEnd, 7);
    at(QUARTER_OFFSETS.inEndHour, 23);
    at(QUARTER_OFFSETS.inEndMinute, 59);
    at(QUARTER_OFFSETS.outEndHour, 23);
    at(QUARTER_OFFSETS.outEndMinute, 59);
  });
  for (const base of specialDates) {
    v[`${prefix}${base + SPECIAL_DATE_OFFSETS.endHour}`] = 23;
    v[`${prefix}${base + SPECIAL_DATE_OFFSETS.endMinute}`] = 59;
  }
  return v;
}
