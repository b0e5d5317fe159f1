import { describe, expect, it } from "vitest";
import type { Observation } from "./alarm-observations.ts";
import { type AlarmState, coveredByClosed, openedState, step } from "./alarm-rules.ts";

const HOLD = 60_000;
const T0 = Date.UTC(2026, 0, 1, 12);
const MIN = 60_000;

/** An observation received at `at` (console clock) that the device dates `ts`. */
const obs = (active: boolean, at: number, ts = at, late = false): Observation => ({
  deviceId: 1,
  tenantId: 1,
  systemType: 2,
  code: 2001,
  level: 2,
  active,
  ts,
  receivedAt: at,
  late,
});

/** Applies observations in order; returns the state and when (console time) it closed, if it did. */
function run(first: Observation, rest: Observation[]) {
  let s: AlarmState = openedState(first, 1, 2);
  for (const o of rest) {
    const r = step(s, o, HOLD);
    s = r.state;
    if (r.close) return { state: s, closedAt: o.receivedAt, clearedAt: r.close.clearedAt };
  }
  return { state: s, closedAt: null, clearedAt: null };
}

/** Clear readings every 10 s from `from` (console time) for `count` readings, dated by `skew`. */
const clears = (from: number, count: number, skew = 0) =>
  Array.from({ length: count }, (_, i) => obs(false, from + i * 10_000, from + i * 10_000 + skew));

describe("no device clock holds an alarm open", () => {
  it("takes a time ahead of the console's as the time it arrived, so the clear readings after it count", () => {
    // An event dated 9 minutes ahead (within the allowance), then clear readings with a right clock.
    const { state, closedAt, clearedAt } = run(obs(true, T0, T0 + 9 * MIN), clears(T0 + 10_000, 20));
    expect(state.occurredAt).toBe(T0);
    expect(closedAt).toBe(T0 + 10_000 + HOLD);
    expect(clearedAt).toBe(T0 + 10_000);
  });

  it("closes on the console's clock when the device's clock went back an hour", () => {
    const open = obs(true, T0);
    const { closedAt, clearedAt } = run(open, clears(T0 + 10_000, 20, -60 * MIN));
    expect(closedAt).toBe(T0 + 10_000 + HOLD);
    // Shown as cleared when the console saw it clear (never before it occurred).
    expect(clearedAt).toBe(T0 + 10_000);
  });

  it("keeps it open while readings keep showing the condition, whatever their dates", () => {
    const readings = Array.from({ length: 30 }, (_, i) => obs(i % 10 !== 5, T0 + (i + 1) * 10_000, T0 - 60 * MIN + i * 10_000));
    expect(run(obs(true, T0), readings).closedAt).toBeNull();
  });

  it("does not let readings the device marks as late hold it open or start its hold", () => {
    const live = clears(T0 + 10_000, 3);
    // Buffered readings from an hour ago, still showing the condition, arrive among the clear ones.
    const late = [obs(true, T0 + 15_000, T0 - 60 * MIN, true), obs(true, T0 + 25_000, T0 - 59 * MIN, true)];
    const { closedAt } = run(
      obs(true, T0),
      [...live, ...late, ...clears(T0 + 40_000, 5)].sort((a, b) => a.receivedAt - b.receivedAt),
    );
    expect(closedAt).toBe(T0 + 10_000 + HOLD);
    // Late clear readings alone do not start the console's hold: the live ones do.
    const s = run(obs(true, T0), [obs(false, T0 + 10_000, T0 - 30 * MIN, true)]).state;
    expect(s.clearingSeenAt).toBeNull();
  });

  it("counts a condition back within the hold as a flap of the same alarm", () => {
    const { state, closedAt } = run(obs(true, T0), [obs(false, T0 + 10_000), obs(true, T0 + 20_000), obs(false, T0 + 30_000)]);
    expect(closedAt).toBeNull();
    expect(state.flapCount).toBe(1);
    expect(state.clearingSeenAt).toBe(T0 + 30_000);
  });

  it("closes at once when the hold is 0", () => {
    const s = openedState(obs(true, T0), 1, 2);
    expect(step(s, obs(false, T0 + 1), 0).close).toEqual({ clearedAt: T0 + 1, closedSeenAt: T0 + 1 });
  });
});

describe("steps applied late, twice or out of order", () => {
  const sequence = [obs(false, T0 + 10_000), obs(true, T0 + 20_000), obs(false, T0 + 30_000), obs(false, T0 + 40_000)];

  it("end in the same state when applied twice", () => {
    const once = run(obs(true, T0), sequence).state;
    const twice = run(obs(true, T0), [...sequence, ...sequence]).state;
    expect(twice).toEqual(once);
  });

  it("agree on the console's hold whatever order the steps came in", () => {
    const inOrder = run(obs(true, T0), sequence).state;
    const reversed = run(obs(true, T0), [...sequence].reverse()).state;
    expect(reversed.clearingSeenAt).toBe(inOrder.clearingSeenAt);
    expect(reversed.activeSeenAt).toBe(inOrder.activeSeenAt);
  });

  it("never reopen an alarm that closed after the observation arrived", () => {
    const closed = { closedSeenAt: T0 + HOLD, clearedAt: T0 };
    expect(coveredByClosed(obs(true, T0 - 5000), closed)).toBe(true);
    // Arrived after the close: the condition is back, a new alarm.
    expect(coveredByClosed(obs(true, T0 + HOLD + 1), closed)).toBe(false);
    // Even with a clock an hour behind: its arrival says it is new.
    expect(coveredByClosed(obs(true, T0 + HOLD + 1, T0 - 60 * MIN), closed)).toBe(false);
    // A reading the device sent late, dated before the condition cleared, belongs to the closed alarm.
    expect(coveredByClosed(obs(true, T0 + HOLD + 1, T0 - 1000, true), closed)).toBe(true);
  });
});
