import { getRegister, isValidValue } from "../../catalogue/catalogue.ts";
import { ENUMS, isEnumName } from "../../catalogue/enums.ts";
import type { SettingValues } from "../setting-values.ts";
import {
  HOURS_PER_DAY,
  QUARTER_OFFSETS,
  SCHEDULE_LAYOUT,
  type ScheduleProduct,
  SOC_LIMIT_KINDS,
  SPECIAL_DATE_OFFSETS,
  scheduleRegister,
} from "./layout.ts";
import type { DeviceSchedule } from "./model.ts";

/**
 * How one register contributes to the model: a number as it is, one part of a time ("HH:mm") or
 * a date ("YYYY-MM-DD"), or a switch (the `prohibitEnable` code 1 is on).
 */
type Part = "value" | "hour" | "minute" | "year" | "month" | "day" | "switch";
export interface ScheduleField {
  id: string;
  /** Where in `DeviceSchedule`, e.g. `quarters.1.inRange.start`. */
  path: string;
  part: Part;
}

const SWITCH_ON = 1;
const pad = (n: number, width: number) => String(n).padStart(width, "0");

function buildFields(product: ScheduleProduct): ScheduleField[] {
  const l = SCHEDULE_LAYOUT[product];
  const fields: ScheduleField[] = [];
  const add = (base: number, offset: number, path: string, part: Part) =>
    fields.push({ id: scheduleRegister(product, base, offset), path, part });
  const Q = QUARTER_OFFSETS;
  l.quarters.forEach((base, q) => {
    const at = `quarters.${q}`;
    add(base, Q.startMonth, `${at}.months.start`, "value");
    add(base, Q.endMonth, `${at}.months.end`, "value");
    add(base, Q.weekStart, `${at}.weekdays.start`, "value");
    add(base, Q.weekEnd, `${at}.weekdays.end`, "value");
    add(base, Q.inStartHour, `${at}.inRange.start`, "hour");
    add(base, Q.inStartMinute, `${at}.inRange.start`, "minute");
    add(base, Q.inEndHour, `${at}.inRange.end`, "hour");
    add(base, Q.inEndMinute, `${at}.inRange.end`, "minute");
    add(base, Q.outStartHour, `${at}.outOfRange.start`, "hour");
    add(base, Q.outStartMinute, `${at}.outOfRange.start`, "minute");
    add(base, Q.outEndHour, `${at}.outOfRange.end`, "hour");
    add(base, Q.outEndMinute, `${at}.outOfRange.end`, "minute");
    add(base, Q.inModeInternal, `${at}.inRange.modeInside`, "value");
    add(base, Q.inModeExternal, `${at}.inRange.modeOutside`, "value");
    add(base, Q.outModeInternal, `${at}.outOfRange.modeInside`, "value");
    add(base, Q.outModeExternal, `${at}.outOfRange.modeOutside`, "value");
  });
  const S = SPECIAL_DATE_OFFSETS;
  l.specialDates.forEach((base, d) => {
    const at = `specialDates.${d}`;
    add(base, S.year, `${at}.date`, "year");
    add(base, S.month, `${at}.date`, "month");
    add(base, S.day, `${at}.date`, "day");
    add(base, S.startHour, `${at}.window.start`, "hour");
    add(base, S.startMinute, `${at}.window.start`, "minute");
    add(base, S.endHour, `${at}.window.end`, "hour");
    add(base, S.endMinute, `${at}.window.end`, "minute");
    add(base, S.modeInternal, `${at}.window.modeInside`, "value");
    add(base, S.modeExternal, `${at}.window.modeOutside`, "value");
  });
  for (let h = 0; h < HOURS_PER_DAY; h++) add(l.hourly, h, `hourly.${h}`, "value");
  for (const kind of SOC_LIMIT_KINDS) {
    const [soc, enable] = l.socLimits[kind];
    add(soc, 0, `soc.${kind}.soc`, "value");
    add(enable, 0, `soc.${kind}.enabled`, "switch");
  }
  return fields;
}

const FIELDS = { three: buildFields("three"), single: buildFields("single") };
const FIELD_BY_ID = {
  three: new Map(FIELDS.three.map((f) => [f.id, f])),
  single: new Map(FIELDS.single.map((f) => [f.id, f])),
};

/** Every register of the schedule with its place in the model. */
export function scheduleFields(product: ScheduleProduct): readonly ScheduleField[] {
  return FIELDS[product];
}

/** The model path a register of the schedule fills (where a refusal of it is shown), or null. */
export function scheduleFieldOf(product: ScheduleProduct, registerId: string): string | null {
  return FIELD_BY_ID[product].get(registerId)?.path ?? null;
}

/** A register value the catalogue accepts for the register: a number in range, on its step, an option of its enumeration. */
function acceptable(id: string, value: unknown): value is number {
  const r = getRegister(id);
  if (!r || typeof value !== "number" || !Number.isInteger(value / r.scale)) return false;
  const codes = r.enum && isEnumName(r.enum) ? ENUMS[r.enum].values : undefined;
  return isValidValue(r, value, codes);
}

type Tree = { [key: string]: Tree | Tree[] | unknown };

function setPath(root: Tree, path: string, value: unknown) {
  const keys = path.split(".");
  let node: Tree = root;
  keys.forEach((key, i) => {
    if (i === keys.length - 1) {
      node[key] = value;
      return;
    }
    node[key] ??= /^\d+$/.test(keys[i + 1] as string) ? [] : {};
    node = node[key] as Tree;
  });
}

function getPath(root: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((node, key) => (node as Tree | undefined)?.[key], root);
}

export type ScheduleReading = { ok: true; schedule: DeviceSchedule } | { ok: false; unreadable: string[] };

/**
 * The schedule held in a device's registers (a page answer). Every register must hold a value the
 * catalogue accepts; otherwise the answer names those that do not (missing or out of range), and
 * no schedule is guessed.
 */
export function readSchedule(product: ScheduleProduct, values: SettingValues): ScheduleReading {
  const unreadable = FIELDS[product].filter((f) => !acceptable(f.id, values[f.id])).map((f) => f.id);
  if (unreadable.length > 0) return { ok: false, unreadable };
  const parts = new Map<string, Partial<Record<Part, number>>>();
  for (const f of FIELDS[product]) {
    const entry = parts.get(f.path) ?? {};
    entry[f.part] = values[f.id] as number;
    parts.set(f.path, entry);
  }
  const root: Tree = {};
  for (const [path, p] of parts) {
    let leaf: unknown;
    if (p.hour !== undefined) leaf = `${pad(p.hour, 2)}:${pad(p.minute ?? 0, 2)}`;
    else if (p.year !== undefined) leaf = `${pad(p.year, 4)}-${pad(p.month ?? 1, 2)}-${pad(p.day ?? 1, 2)}`;
    else if (p.switch !== undefined) leaf = p.switch === SWITCH_ON;
    else leaf = p.value;
    setPath(root, path, leaf);
  }
  return { ok: true, schedule: root as unknown as DeviceSchedule };
}

/** One part of a model leaf as a register value (NaN where the leaf is not what its field needs). */
function partOf(leaf: unknown, part: Part): number {
  if (part === "switch") return leaf === true ? SWITCH_ON : leaf === false ? 0 : Number.NaN;
  if (part === "value") return typeof leaf === "number" ? leaf : Number.NaN;
  const text = typeof leaf === "string" ? leaf : "";
  const time = /^(\d{2}):(\d{2})$/.exec(text);
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (part === "hour") return time ? Number(time[1]) : Number.NaN;
  if (part === "minute") return time ? Number(time[2]) : Number.NaN;
  if (!date) return Number.NaN;
  return Number(part === "year" ? date[1] : part === "month" ? date[2] : date[3]);
}

/** The register values that store a schedule (every register of the schedule page). */
export function writeSchedule(product: ScheduleProduct, schedule: DeviceSchedule): Record<string, number> {
  return Object.fromEntries(FIELDS[product].map((f) => [f.id, partOf(getPath(schedule, f.path), f.part)]));
}

/** The registers a schedule changes against what the device holds: one write of those alone. */
export function scheduleChanges(
  product: ScheduleProduct,
  current: SettingValues,
  schedule: DeviceSchedule,
): Record<string, number> {
  return Object.fromEntries(Object.entries(writeSchedule(product, schedule)).filter(([id, v]) => current[id] !== v));
}
