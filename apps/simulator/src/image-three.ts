import { baselineValues, TELEMETRY_REGISTERS } from "@ess/contracts";
import {
  batteryState,
  batteryWork,
  type DeviceCondition,
  gridState,
  inverterState,
  kw,
  r1,
  reactivePower,
  systemState,
} from "./device-status.ts";
import { CELLS_PER_MODULE, type Plant, type PlantSettings } from "./plant.ts";

type Values = Record<string, number | string>;
const set = (v: Values, base: string, first: number, values: readonly number[]) =>
  values.forEach((x, i) => {
    v[`${base}${first + i}`] = x;
  });
const phases = <T>(f: (i: number) => T): [T, T, T] => [f(0), f(1), f(2)];
const LOAD_SHARE = [0.4, 0.35, 0.25] as const;

/** Resting values of every three-phase input register, then the ones the physics drives. */
export function threePhaseBaseline(plant: Plant): Values {
  const v = baselineValues(TELEMETRY_REGISTERS.three);
  const spec = plant.spec;
  Object.assign(v, {
    TP_0X04_0: 1,
    TP_0X04_18: 1,
    TP_0X04_19: 1,
    TP_0X04_20: 1,
    TP_0X04_1037: spec.ratedW / 1000,
    TP_0X04_1036: 215,
    TP_0X04_1038: 110,
    TP_0X04_1047: 215,
    TP_0X04_4099: 1,
    TP_0X04_4098: 1,
    TP_0X04_4121: 1,
    TP_0X04_4116: 3,
    TP_0X04_4129: 1,
    TP_0X04_4130: 1,
    TP_0X04_4106: 105,
    TP_0X04_4107: 3,
    TP_0X04_4108: 100,
    TP_0X04_4611: spec.batteryModules,
    TP_0X04_4610: spec.batteryModules,
    TP_0X04_5713: 121,
    TP_0X04_32768: 100,
    // Monitoring program (communication stick) version, 1.30.
    TP_0X04_32797: 130,
    TP_0X04_32772_32779: "ESS-HYB",
    TP_0X04_32780_32787: `H3-${spec.ratedW / 1000}K`,
    TP_0X04_32788_32795: "ESS Energy",
    TP_0X04_32805_32812: spec.sn.slice(0, 16),
  });
  return v;
}

/** Updates `v` in place from the plant's state, the settings and the device's condition. */
export function threePhaseReadings(v: Values, plant: Plant, settings: PlantSettings, c: DeviceCondition): Values {
  const s = plant.state;
  const spec = plant.spec;
  const volts = plant.batteryVoltage();
  const amps = s.batteryW / Math.max(1, volts);
  const cells = s.cellMv;
  const maxCell = Math.max(...cells);
  const minCell = Math.min(...cells);
  const t = s.today;
  const T = s.total;
  const q = reactivePower(s);
  Object.assign(v, {
    TP_0X04_1: c.firmware,
    TP_0X04_2: 100,
    TP_0X04_9: c.upgradePercent,
    TP_0X04_1294: c.selfCheck,
    TP_0X04_24: r1((plant.capacityKwh() * s.soc) / 100),
    TP_0X04_25: Math.round(s.soc),
    TP_0X04_26: r1(settings.chargeCurrentA),
    TP_0X04_27: r1(settings.dischargeCurrentA),
    TP_0X04_28: maxCell,
    TP_0X04_29: minCell,
    TP_0X04_30: batteryWork(s, settings.socMin),
    TP_0X04_31_32: r1(t.pv),
    TP_0X04_33_34: r1(T.pv),
    TP_0X04_35_36: r1(t.load),
    TP_0X04_37_38: r1(T.load),
    TP_0X04_39_40: r1(t.sell),
    TP_0X04_41_42: r1(T.sell),
    TP_0X04_43_44: r1(t.buy),
    TP_0X04_45_46: r1(T.buy),
    TP_0X04_47_48: r1(t.charge),
    TP_0X04_49_50: r1(T.charge),
    TP_0X04_51_52: r1(t.discharge),
    TP_0X04_53_54: r1(T.discharge),
    TP_0X04_55_56: r1(Math.max(0, t.pv - t.sell)),
    TP_0X04_57_58: r1(Math.max(0, T.pv - T.sell)),
    TP_0X04_59_60: r1(Math.max(0, t.load - t.buy)),
    TP_0X04_61_62: r1(Math.max(0, T.load - T.buy)),
    TP_0X04_63: t.load > 0 ? Math.round(Math.min(100, ((t.load - t.buy) / t.load) * 100)) : 0,
    TP_0X04_77: Math.floor(s.runSeconds / 86_400),
    TP_0X04_78: Math.floor((s.runSeconds % 86_400) / 3600),
    TP_0X04_79: Math.floor((s.runSeconds % 3600) / 60),
    TP_0X04_80: Math.floor(s.runSeconds % 60),
    TP_0X04_118: s.gridW,
    TP_0X04_119: -s.batteryW,
    TP_0X04_120: s.loadW,
    TP_0X04_1031: spec.site.countryCode,
    TP_0X04_1034: s.effectiveMode,
    TP_0X04_1050: systemState(s, c.running),
    TP_0X04_1052: batteryState(s),
    TP_0X04_1053: gridState(s),
    TP_0X04_1054: inverterState(s),
    TP_0X04_1055: c.faultLevel,
    TP_0X04_1057: r1(580 + s.pvW / 100),
    TP_0X04_1058: r1((s.pvW * s.pv1Share) / 600),
    TP_0X04_1059: r1(560 + s.pvW / 110),
    TP_0X04_1060: r1((s.pvW * (1 - s.pv1Share)) / 580),
    TP_0X04_1061: kw(s.pvW * s.pv1Share),
    TP_0X04_1062: kw(s.pvW * (1 - s.pv1Share)),
    TP_0X04_1066: 750,
    TP_0X04_1071: r1(volts),
    TP_0X04_1072: r1(amps),
    TP_0X04_1073: s.batteryW,
    TP_0X04_1074: Math.round(s.soc),
    TP_0X04_1075: Math.round(s.soh),
    TP_0X04_1079: 100,
    TP_0X04_1080: settings.socMin,
    TP_0X04_1109_1110: Math.abs(s.gridW),
    TP_0X04_1111_1112: s.gridW,
    TP_0X04_1113_1114: q.gridVar,
    TP_0X04_1118: 0.99,
    TP_0X04_1128_1129: s.gridW,
    TP_0X04_1168_1169: Math.abs(s.pvW + s.batteryW),
    TP_0X04_1170_1171: s.pvW + s.batteryW,
    TP_0X04_1172_1173: q.inverterVar,
    TP_0X04_1177: 0.99,
    TP_0X04_1218_1219: s.loadW,
    TP_0X04_1220_1221: s.loadW,
    TP_0X04_1227: 0.98,
    TP_0X04_1234_1235: s.loadW,
    TP_0X04_1236: Math.min(100, Math.round((s.loadW / spec.ratedW) * 100)),
    TP_0X04_1271_1272: s.generatorW,
    TP_0X04_1285: r1(s.ambientC + 15),
    TP_0X04_1286: r1(s.inverterC),
    TP_0X04_1287: r1(s.inverterC - 6),
    TP_0X04_4109: s.local.year,
    TP_0X04_4110: s.local.month,
    TP_0X04_4111: s.local.dayOfMonth,
    TP_0X04_4112: Math.floor(s.local.hour),
    TP_0X04_4113: s.local.minute,
    TP_0X04_4114: s.local.second,
    TP_0X04_4118: Math.round(s.soc),
    TP_0X04_4122: r1(s.batteryC),
    TP_0X04_4126: r1(volts),
    TP_0X04_4127: r1(volts),
    TP_0X04_4131: r1(amps),
    TP_0X04_4618: r1(volts),
    TP_0X04_4619: s.batteryW < -50 ? 1 : s.batteryW > 50 ? 2 : 0,
    TP_0X04_4624: r1(amps),
    TP_0X04_4625: Math.round(s.soc),
    TP_0X04_4626: Math.round(s.soh),
    TP_0X04_4627: r1(Math.max(...s.cellC)),
    TP_0X04_4630: r1(Math.min(...s.cellC)),
    TP_0X04_4633: maxCell,
    TP_0X04_4636: minCell,
    TP_0X04_4628: 1 + Math.floor(s.cellC.indexOf(Math.max(...s.cellC)) / CELLS_PER_MODULE),
    TP_0X04_4634: 1 + Math.floor(cells.indexOf(maxCell) / CELLS_PER_MODULE),
    TP_0X04_4635: 1 + (cells.indexOf(maxCell) % CELLS_PER_MODULE),
    TP_0X04_4637: 1 + Math.floor(cells.indexOf(minCell) / CELLS_PER_MODULE),
    TP_0X04_4638: 1 + (cells.indexOf(minCell) % CELLS_PER_MODULE),
    TP_0X04_5160: Math.round(s.cycles),
    TP_0X04_5653: Math.round(s.soc),
    TP_0X04_5654: Math.round(s.soh),
  });
  // Module 1 of the BMS shows its 16 cells (the register block has room for 24).
  set(v, "TP_0X04_", 5120, cells.slice(0, CELLS_PER_MODULE));
  set(v, "TP_0X04_", 5144, s.cellC.slice(0, CELLS_PER_MODULE).map(r1));
  const gridV = s.gridV.map(r1);
  const load = phases((i) => Math.round(s.loadW * (LOAD_SHARE[i] ?? 0)));
  const grid = phases((i) => Math.round(s.gridW * (LOAD_SHARE[i] ?? 0)));
  const inverter = phases(() => Math.round((s.pvW + s.batteryW) / 3));
  const hz = Math.round(s.gridHz * 100) / 100;
  set(v, "TP_0X04_", 100, [hz, hz, hz]);
  set(v, "TP_0X04_", 103, gridV);
  set(
    v,
    "TP_0X04_",
    106,
    grid.map((w, i) => r1(w / (gridV[i] ?? 230))),
  );
  set(v, "TP_0X04_", 109, inverter);
  set(v, "TP_0X04_", 1082, gridV);
  set(
    v,
    "TP_0X04_",
    1085,
    grid.map((w, i) => r1(w / (gridV[i] ?? 230))),
  );
  set(v, "TP_0X04_", 1088, [hz, hz, hz]);
  set(v, "TP_0X04_", 1141, gridV);
  set(
    v,
    "TP_0X04_",
    1144,
    inverter.map((w, i) => r1(Math.abs(w) / (gridV[i] ?? 230))),
  );
  set(v, "TP_0X04_", 1191, gridV);
  set(
    v,
    "TP_0X04_",
    1194,
    load.map((w, i) => r1(w / (gridV[i] ?? 230))),
  );
  ["1097_1098", "1099_1100", "1101_1102"].forEach((id, i) => {
    v[`TP_0X04_${id}`] = grid[i] ?? 0;
  });
  ["1122_1123", "1124_1125", "1126_1127"].forEach((id, i) => {
    v[`TP_0X04_${id}`] = grid[i] ?? 0;
  });
  ["1156_1157", "1158_1159", "1160_1161"].forEach((id, i) => {
    v[`TP_0X04_${id}`] = inverter[i] ?? 0;
  });
  // Reactive power by phase: the grid's shared like its active power, the inverter's evenly.
  ["1103_1104", "1105_1106", "1107_1108"].forEach((id, i) => {
    v[`TP_0X04_${id}`] = Math.round(q.gridVar * (LOAD_SHARE[i] ?? 0));
  });
  ["1162_1163", "1164_1165", "1166_1167"].forEach((id) => {
    v[`TP_0X04_${id}`] = Math.round(q.inverterVar / 3);
  });
  ["1206_1207", "1208_1209", "1210_1211"].forEach((id, i) => {
    v[`TP_0X04_${id}`] = load[i] ?? 0;
  });
  ["1228_1229", "1230_1231", "1232_1233"].forEach((id, i) => {
    v[`TP_0X04_${id}`] = load[i] ?? 0;
  });
  // The grid meter (circuit 1): import and export counters, phase values in kW.
  Object.assign(v, {
    TP_0X04_2048_2049: r1(T.buy + T.sell),
    TP_0X04_2056_2057: r1(T.buy),
    TP_0X04_2064_2065: r1(T.sell),
    TP_0X04_2120_2121: kw(s.gridW),
    TP_0X04_2152: 0.99,
    TP_0X04_2168: hz,
  });
  ["2072_2073", "2074_2075", "2076_2077"].forEach((id, i) => {
    v[`TP_0X04_${id}`] = gridV[i] ?? 230;
  });
  ["2122_2123", "2124_2125", "2126_2127"].forEach((id, i) => {
    v[`TP_0X04_${id}`] = kw(grid[i] ?? 0);
  });
  for (const [id, bits] of c.alarmWords) if (id in v) v[id] = bits;
  return v;
}
