import { ENUMS } from "../catalogue/enums.ts";

/**
 * What a three-phase inverter reports about its self-check in every reading (page 41/42): the
 * item it is testing (`TP_0X04_14Filter`: 59.S1 … 81<.S2), the state (`selfCheckFilter`), the
 * item's set protection threshold and time, the threshold and time at which the protection
 * actually tripped, and the test's real-time threshold. The items run in order and a check stops
 * at the first item that fails. A device reports a reading at least once per item.
 */
export const SELF_CHECK_READING = {
  item: "TP_0X04_14",
  state: "TP_0X04_1294",
  actualThreshold: "TP_0X04_1295",
  actualTimeMs: "TP_0X04_1296",
  realTimeThreshold: "TP_0X04_1297",
  setThreshold: "TP_0X04_1298",
  setTimeMs: "TP_0X04_1299",
} as const;
/** The single-phase readings' result values of a check (no item is reported). */
export const SINGLE_SELF_CHECK_READING = {
  actualThreshold: "selfCheckActualProtectionThreshold",
  actualTimeMs: "selfCheckActualProtectionTime",
  realTimeThreshold: "selfCheckRealTimeProtectionThreshold",
} as const;

/** The items of a three-phase self-check, in the order the device runs them. */
export const SELF_CHECK_ITEMS: readonly number[] = ENUMS.TP_0X04_14Filter.values.filter((v) => v !== 0);

/** The unit of an item's thresholds: volts for the voltage stages (59, 27), hertz for the frequency ones (81). */
export function selfCheckItemUnit(item: number): "V" | "Hz" | "" {
  if (item >= 1 && item <= 4) return "V";
  if (item >= 5 && item <= 8) return "Hz";
  return "";
}

/**
 * One item's result. `passed`: the device moved past it (or ended done); `failed`: the check
 * ended failed on it; `running`: being tested now; `pending`: not reached yet; `notRun`: after
 * the item that failed; `notReported`: no reading showed it. Item 0 is a single-phase check as a
 * whole (its model reports no item).
 */
export type SelfCheckOutcome = "passed" | "failed" | "running" | "pending" | "notRun" | "notReported";
export interface SelfCheckItemResult {
  item: number;
  outcome: SelfCheckOutcome;
  setThreshold: number | null;
  setTimeMs: number | null;
  actualThreshold: number | null;
  actualTimeMs: number | null;
  realTimeThreshold: number | null;
}

type Reading = Readonly<Record<string, unknown>>;
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);

/**
 * Each item's result from the readings of a three-phase check (in time order) and the check's
 * state (1 checking, 2 failed, 3 done): an item's values are those of the last reading that
 * showed it.
 */
export function threePhaseSelfCheckItems(readings: readonly Reading[], state: number): SelfCheckItemResult[] {
  const R = SELF_CHECK_READING;
  const last = new Map<number, Reading>();
  let current = 0;
  for (const r of readings) {
    const item = num(r[R.item]);
    if (item !== null && SELF_CHECK_ITEMS.includes(item)) {
      last.set(item, r);
      current = item;
    } else if (item === 0) current = 0;
  }
  const reached = Math.max(0, ...last.keys());
  return SELF_CHECK_ITEMS.map((item) => {
    const r = last.get(item);
    let outcome: SelfCheckOutcome;
    if (r) {
      if (item === current && state === 1) outcome = "running";
      else if (item === current && state === 2) outcome = "failed";
      else outcome = "passed";
    } else if (state === 1) outcome = item > reached ? "pending" : "notReported";
    else if (state === 2) outcome = item > current && current !== 0 ? "notRun" : "notReported";
    else outcome = "notReported";
    return {
      item,
      outcome,
      setThreshold: num(r?.[R.setThreshold]),
      setTimeMs: num(r?.[R.setTimeMs]),
      actualThreshold: num(r?.[R.actualThreshold]),
      actualTimeMs: num(r?.[R.actualTimeMs]),
      realTimeThreshold: num(r?.[R.realTimeThreshold]),
    };
  });
}

/** A single-phase check as one result: its state and the values of its last reading. */
export function singlePhaseSelfCheckResult(last: Reading | null, state: number): SelfCheckItemResult[] {
  const R = SINGLE_SELF_CHECK_READING;
  const outcome: SelfCheckOutcome = state === 3 ? "passed" : state === 2 ? "failed" : "running";
  return [
    {
      item: 0,
      outcome,
      setThreshold: null,
      setTimeMs: null,
      actualThreshold: num(last?.[R.actualThreshold]),
      actualTimeMs: num(last?.[R.actualTimeMs]),
      realTimeThreshold: num(last?.[R.realTimeThreshold]),
    },
  ];
}

/** How far a running check has come: the items it moved past, of all. */
export function selfCheckProgress(items: readonly SelfCheckItemResult[]): { done: number; total: number } {
  return { done: items.filter((i) => i.outcome === "passed").length, total: items.length };
}
