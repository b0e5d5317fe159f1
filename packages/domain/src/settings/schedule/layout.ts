/**
 * Where the scheduled settings sit (three-phase page 49, single-phase page 11): four quarters of
 * 16 registers (start month, end month, first and last weekday, the in-range period's start and
 * end hour and minute, the out-of-range period's, then four mode codes), five special dates of 9
 * (year, month, day, start hour, minute, end hour, minute, two modes), 24 hourly modes and the
 * buy/sell/use SOC limits with their switches. Which part the device follows (`scheduleType`: 0 by
 * date — quarters and special dates, 1 by time — the hourly modes, 2 the current system mode) is
 * a setting of another page (`typeRegister`).
 */
export const SCHEDULE_LAYOUT = {
  three: {
    page: 49,
    typeRegister: "TP_0X03_71",
    prefix: "TP_0X03_",
    quarters: [76, 92, 108, 124],
    specialDates: [140, 149, 158, 167, 176],
    hourly: 185,
    socLimits: { buy: [209, 210], sell: [211, 212], use: [213, 214] },
  },
  single: {
    page: 11,
    typeRegister: "timingModeType",
    prefix: "HM6_0X03_",
    quarters: [128, 144, 160, 176],
    specialDates: [80, 89, 98, 107, 116],
    hourly: 196,
    socLimits: { buy: [450, 451], sell: [452, 453], use: [454, 455] },
  },
} as const;

export type ScheduleProduct = keyof typeof SCHEDULE_LAYOUT;
/** `scheduleType` codes: what the device follows. */
export const SCHEDULE_TYPES = { byDate: 0, byTime: 1, currentMode: 2 } as const;

export const QUARTER_OFFSETS = {
  startMonth: 0,
  endMonth: 1,
  weekStart: 2,
  weekEnd: 3,
  inStartHour: 4,
  inStartMinute: 5,
  inEndHour: 6,
  inEndMinute: 7,
  outStartHour: 8,
  outStartMinute: 9,
  outEndHour: 10,
  outEndMinute: 11,
  inModeInternal: 12,
  inModeExternal: 13,
  outModeInternal: 14,
  outModeExternal: 15,
} as const;
export const QUARTER_REGISTERS = 16;

export const SPECIAL_DATE_OFFSETS = {
  year: 0,
  month: 1,
  day: 2,
  startHour: 3,
  startMinute: 4,
  endHour: 5,
  endMinute: 6,
  modeInternal: 7,
  modeExternal: 8,
} as const;
export const SPECIAL_DATE_REGISTERS = 9;

export const HOURS_PER_DAY = 24;
export const SOC_LIMIT_KINDS = ["buy", "sell", "use"] as const;
export type SocLimitKind = (typeof SOC_LIMIT_KINDS)[number];

/** The register id at `base + offset` of a product's schedule. */
export function scheduleRegister(product: ScheduleProduct, base: number, offset = 0): string {
  return `${SCHEDULE_LAYOUT[product].prefix}${base + offset}`;
}

/** The register ids of one item (quarter or special date). */
export function itemRegisters(product: ScheduleProduct, base: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => scheduleRegister(product, base, i));
}

/** Every register of a product's schedule, in layout order. */
export function scheduleRegisterIds(product: ScheduleProduct): string[] {
  const l = SCHEDULE_LAYOUT[product];
  return [
    ...l.quarters.flatMap((base) => itemRegisters(product, base, QUARTER_REGISTERS)),
    ...l.specialDates.flatMap((base) => itemRegisters(product, base, SPECIAL_DATE_REGISTERS)),
    ...itemRegisters(product, l.hourly, HOURS_PER_DAY),
    ...SOC_LIMIT_KINDS.flatMap((k) => l.socLimits[k].map((n) => scheduleRegister(product, n))),
  ];
}
