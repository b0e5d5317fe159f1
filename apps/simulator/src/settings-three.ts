import { baselineValues } from "@ess/contracts";
import { BATTERY_DEFAULTS, REGISTERS } from "@ess/domain";
import type { Plant } from "./plant.ts";
import { factorySchedule } from "./schedule-factory.ts";
import { FACTORY_TRIP_TIMES } from "./self-test.ts";

/** Holding registers of a three-phase inverter with the values it leaves the factory with. */
export function threePhaseSettings(plant: Plant): Record<string, number | string> {
  const v = baselineValues(REGISTERS.filter((r) => r.family === "TP_0X03"));
  Object.assign(v, {
    TP_0X03_28: 3,
    TP_0X03_33: 3,
    TP_0X03_27: 1,
    TP_0X03_32: 1,
    TP_0X03_55: 10,
    TP_0X03_71: 2,
    TP_0X03_72: 1,
    TP_0X03_1024: plant.spec.site.countryCode,
    TP_0X03_1025: 1,
    TP_0X03_1028: 100,
    TP_0X03_1029: 100,
    TP_0X03_1034: 100,
    TP_0X03_1035: 100,
    TP_0X03_1045: 230,
    TP_0X03_1046: 50,
    TP_0X03_1047: 1,
    TP_0X03_1050: 576,
    TP_0X03_1051: 560,
    TP_0X03_1052: 460,
    TP_0X03_1053: 480,
    TP_0X03_1057: 1,
    TP_0X03_1058: 253,
    TP_0X03_1059: 264.5,
    TP_0X03_1060: 276,
    TP_0X03_1061: 195.5,
    TP_0X03_1062: 184,
    TP_0X03_1063: 92,
    TP_0X03_1073: 50.5,
    TP_0X03_1074: 51.5,
    TP_0X03_1075: 52,
    TP_0X03_1076: 49.5,
    TP_0X03_1077: 47.5,
    TP_0X03_1078: 47,
    TP_0X03_1089: 60,
    TP_0X03_1090: 300,
    TP_0X03_1100: 1,
  });
  Object.assign(v, BATTERY_DEFAULTS.three, FACTORY_TRIP_TIMES);
  Object.assign(v, factorySchedule("three"));
  for (let h = 0; h < 24; h++) v[`TP_0X03_${185 + h}`] = 1;
  return v;
}
