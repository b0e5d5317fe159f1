import { SELF_CHECK_READING as R, SINGLE_SELF_CHECK_READING as S, SELF_CHECK_ITEMS } from "@ess/domain";

type Values = Record<string, number | string>;

/**
 * The protection setting (threshold, trip time) each item of the three-phase self-check tests:
 * 59.S1/S2 the first two overvoltage stages, 27.S1/S2 undervoltage, 81>.S1/S2 overfrequency,
 * 81<.S1/S2 underfrequency.
 */
const ITEM_SETTINGS: Readonly<Record<number, readonly [string, string]>> = {
  1: ["TP_0X03_1058", "TP_0X03_1066"],
  2: ["TP_0X03_1059", "TP_0X03_1067"],
  3: ["TP_0X03_1061", "TP_0X03_1069"],
  4: ["TP_0X03_1062", "TP_0X03_1070"],
  5: ["TP_0X03_1073", "TP_0X03_1081"],
  6: ["TP_0X03_1074", "TP_0X03_1082"],
  7: ["TP_0X03_1076", "TP_0X03_1084"],
  8: ["TP_0X03_1077", "TP_0X03_1085"],
};

/** The protection trip times an inverter leaves the factory with (ms), as the items test them. */
export const FACTORY_TRIP_TIMES: Readonly<Record<string, number>> = {
  TP_0X03_1066: 3000,
  TP_0X03_1067: 200,
  TP_0X03_1069: 1500,
  TP_0X03_1070: 200,
  TP_0X03_1081: 100,
  TP_0X03_1082: 100,
  TP_0X03_1084: 100,
  TP_0X03_1085: 100,
};

const round2 = (v: number) => Math.round(v * 100) / 100;

/**
 * The self-check of a three-phase inverter: one item per reading, in order. Each reading shows the
 * item just tested with its set threshold and time and where and when the protection tripped; a
 * device in fault fails the item it reaches and stops there; after the last item it is done.
 */
export class SelfTest {
  /** The item shown in the readings (0: none). */
  item = 0;
  private values: Values = {};

  start() {
    this.item = 0;
    this.values = {};
  }

  /** Runs the next item; answers the check's state after it: 1 checking, 2 failed, 3 done. */
  step(settings: Values, inFault: boolean): 1 | 2 | 3 {
    const next = SELF_CHECK_ITEMS.find((i) => i > this.item);
    if (next === undefined) {
      this.item = 0;
      this.values = {};
      return 3;
    }
    this.item = next;
    const [thresholdId, timeId] = ITEM_SETTINGS[next] ?? ["", ""];
    const set = Number(settings[thresholdId] ?? 0);
    const setTime = Number(settings[timeId] ?? 0);
    // Within a few tenths of a percent of the setting and a few milliseconds late: a healthy relay.
    const actual = round2(set * (1 + (((next * 37) % 7) - 3) / 1000));
    const late = inFault ? Math.round(setTime * 0.5) + 40 : 8 + next;
    this.values = {
      [R.setThreshold]: set,
      [R.setTimeMs]: setTime,
      [R.actualThreshold]: actual,
      [R.realTimeThreshold]: actual,
      [R.actualTimeMs]: setTime + late,
    };
    return inFault ? 2 : 1;
  }

  /** The self-check registers of a reading. */
  readings(): Values {
    return {
      [R.item]: this.item,
      [R.setThreshold]: 0,
      [R.setTimeMs]: 0,
      [R.actualThreshold]: 0,
      [R.actualTimeMs]: 0,
      [R.realTimeThreshold]: 0,
      ...this.values,
    };
  }
}

/** What a single-phase inverter reports after its check: where and when its protection tripped. */
export function singleSelfTestReadings(done: boolean): Values {
  return done
    ? { [S.actualThreshold]: 253.2, [S.actualTimeMs]: 212, [S.realTimeThreshold]: 253.2 }
    : { [S.actualThreshold]: 0, [S.actualTimeMs]: 0, [S.realTimeThreshold]: 0 };
}
