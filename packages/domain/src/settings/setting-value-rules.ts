import { getRegister, isValidValue } from "../catalogue/catalogue.ts";
import { ENUMS, isEnumName } from "../catalogue/enums.ts";
import type { Register } from "../catalogue/types.ts";
import { problem, type RuleProblem } from "./rule-problem.ts";
import { checkSchedule } from "./schedule/rules.ts";
import type { SettingValues } from "./setting-values.ts";

type Product = "single" | "three";

/** The registers each cross-field rule of spec §5 reads, per product. */
export const SETTING_RULE_REGISTERS = {
  three: {
    dod: "TP_0X03_1053",
    eod: "TP_0X03_1052",
    bulk: "TP_0X03_1050",
    float: "TP_0X03_1051",
    gridOnSoc: "TP_0X03_1054",
    gridOffSoc: "TP_0X03_1055",
    antiBackflow: ["TP_0X03_1028", "TP_0X03_1098", "TP_0X03_1099"],
    acCoupling: "TP_0X03_1042",
    buzzer: "TP_0X03_55",
    wiring: "TP_0X03_1100",
  },
  single: {
    dod: "batteryDod",
    eod: "batteryEod",
    bulk: null,
    float: "batteryFloatChargingVoltage",
    gridOnSoc: "lowerLimitOfGridConnectedSoc",
    gridOffSoc: "offGridSocLowerLimit",
    antiBackflow: ["antiBackflowPowerPercentage"],
    acCoupling: "acCoupling",
    buzzer: "buzzerResponseTime",
    wiring: null,
  },
} as const;

/** Gaps of spec §5/§9: DOD/EOD 1 V, bulk/float 1 V, grid-on/off SOC 10 %. */
export const SETTING_GAPS = { dodOverEodV: 1, bulkOverFloatV: 1, gridOnOverOffSocPct: 10 } as const;
export const ANTI_BACKFLOW_MAX = 150;
/** Above this the export limit needs AC coupling. */
export const ANTI_BACKFLOW_PLAIN_MAX = 100;
export const BUZZER_MAX_S = 60;

/**
 * Settings that act per phase and so mean something only with the neutral wire: the B and C phase
 * power settings and the phase imbalance control (spec §5 "valid only in three-phase four-wire").
 */
export const FOUR_WIRE_ONLY = new Set([
  "TP_0X03_1096",
  "TP_0X03_1097",
  "TP_0X03_1098",
  "TP_0X03_1099",
  "TP_0X03_1113",
  "TP_0X03_1114",
  "TP_0X03_1115",
]);
/** `wiringSystem` code of three-phase four-wire. */
export const FOUR_WIRE = 1;

const num = (v: number | string | null | undefined): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** A value against its register: type, range, enumeration code, whole raw word. */
export function checkRegisterValue(register: Register, value: unknown): RuleProblem | null {
  if (register.type === "string" || register.type === "dateTime") {
    return typeof value === "string" ? null : problem(register.id, "validation:invalidType");
  }
  if (typeof value !== "number" || !Number.isFinite(value)) return problem(register.id, "validation:invalidType");
  const codes = register.enum && isEnumName(register.enum) ? ENUMS[register.enum].values : undefined;
  if (codes && !codes.includes(value as never)) return problem(register.id, "settings:notAnOption");
  if (!isValidValue(register, value, codes)) {
    return problem(register.id, "settings:outOfRange", { min: register.min, max: register.max, unit: register.unit });
  }
  const raw = value / register.scale;
  if (Math.abs(raw - Math.round(raw)) > 1e-6) return problem(register.id, "settings:notOnStep", { step: register.scale });
  return null;
}

/**
 * The rules of spec §5 over a device's settings. `values` is the device's current settings with
 * the proposed changes applied; `changed` the ids being changed — a rule is reported on the
 * changed field it concerns (the device's current values may already break a rule; only a change
 * that keeps or introduces a break is refused, so a user can repair it one field at a time).
 */
export function checkSettingRules(product: Product, values: SettingValues, changed: ReadonlySet<string>): RuleProblem[] {
  const ids = SETTING_RULE_REGISTERS[product];
  const problems: RuleProblem[] = [];
  const touched = (...list: (string | null)[]) => list.some((id) => id !== null && changed.has(id));
  const fieldOf = (preferred: string, other: string) => (changed.has(preferred) ? preferred : other);

  const gap = (hi: string | null, lo: string | null, min: number, key: string) => {
    if (!hi || !lo || !touched(hi, lo)) return;
    const h = num(values[hi]);
    const l = num(values[lo]);
    if (h === null || l === null) return;
    // Compare in tenths so 53.1 − 52.1 counts as exactly 1.
    if (Math.round(h * 100) < Math.round((l + min) * 100)) problems.push(problem(fieldOf(hi, lo), key, { gap: min }));
  };
  gap(ids.dod, ids.eod, SETTING_GAPS.dodOverEodV, "settings:dodAboveEod");
  gap(ids.bulk, ids.float, SETTING_GAPS.bulkOverFloatV, "settings:bulkAboveFloat");
  gap(ids.gridOnSoc, ids.gridOffSoc, SETTING_GAPS.gridOnOverOffSocPct, "settings:gridOnAboveGridOff");

  for (const id of ids.antiBackflow) {
    if (!touched(id, ids.acCoupling)) continue;
    const v = num(values[id]);
    if (v === null) continue;
    if (v < 0 || v > ANTI_BACKFLOW_MAX) problems.push(problem(id, "settings:antiBackflowRange", { max: ANTI_BACKFLOW_MAX }));
    else if (v > ANTI_BACKFLOW_PLAIN_MAX && num(values[ids.acCoupling]) !== 1) {
      problems.push(
        problem(fieldOf(id, ids.acCoupling), "settings:antiBackflowNeedsAcCoupling", { max: ANTI_BACKFLOW_PLAIN_MAX }),
      );
    }
  }

  if (changed.has(ids.buzzer)) {
    const v = num(values[ids.buzzer]);
    if (v === null || v < 0 || v > BUZZER_MAX_S)
      problems.push(problem(ids.buzzer, "settings:buzzerRange", { max: BUZZER_MAX_S }));
  }

  if (ids.wiring) {
    const fourWire = num(values[ids.wiring]) === FOUR_WIRE;
    for (const id of changed) {
      if (FOUR_WIRE_ONLY.has(id) && !fourWire) problems.push(problem(id, "settings:fourWireOnly"));
    }
  }
  return problems;
}

/**
 * Everything a settings change must pass before it is sent: each value against its register
 * (known, settable on this product, in range) and the cross-field rules. `current` is what the
 * device holds (its last page answer); missing values are not guessed.
 */
export function checkSettingChange(
  product: Product,
  current: SettingValues,
  changes: Readonly<Record<string, unknown>>,
): RuleProblem[] {
  const problems: RuleProblem[] = [];
  for (const [id, value] of Object.entries(changes)) {
    const register = getRegister(id);
    if (!register || register.id !== id || register.product !== product || register.access !== "readWrite") {
      problems.push(problem(id, "settings:notSettable"));
      continue;
    }
    const p = checkRegisterValue(register, value);
    if (p) problems.push(p);
  }
  if (problems.length > 0) return problems;
  const merged = { ...current, ...(changes as SettingValues) };
  const changed = new Set(Object.keys(changes));
  return [...checkSettingRules(product, merged, changed), ...checkSchedule(product, merged, changed)];
}

/**
 * Every problem of a form's unsaved settings at once, for showing at the fields while the user
 * types: each value refused by its register, and the cross-field rules over the others (a value
 * out of range is not also judged by the rules, it must be fixed first).
 */
export function checkSettingDraft(
  product: Product,
  current: SettingValues,
  changes: Readonly<Record<string, unknown>>,
): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const acceptable: Record<string, unknown> = {};
  for (const [id, value] of Object.entries(changes)) {
    const own = checkSettingChange(product, {}, { [id]: value }).filter((p) => p.field === id && REGISTER_KEYS.has(p.key));
    if (own.length > 0) problems.push(...own);
    else acceptable[id] = value;
  }
  return [...problems, ...checkSettingChange(product, current, acceptable)];
}

/** The messages `checkSettingChange` gives a value on its own (its register's type and range). */
const REGISTER_KEYS = new Set([
  "settings:notSettable",
  "validation:invalidType",
  "settings:notAnOption",
  "settings:outOfRange",
  "settings:notOnStep",
]);
