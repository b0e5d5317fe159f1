import { baselineValues } from "@ess/contracts";
import { BATTERY_DEFAULTS, REGISTERS, registersOfPage } from "@ess/domain";
import { batteryState, type DeviceCondition, inverterState, r1, reactivePower, systemState } from "./device-status.ts";
import { CELLS_PER_MODULE, type Plant, type PlantSettings } from "./plant.ts";
import { factorySchedule } from "./schedule-factory.ts";

type Values = Record<string, number | string>;

/** Every value a single-phase inverter reports (pages 7, 9, 13, 15), at rest. */
export function singlePhaseBaseline(plant: Plant): Values {
  const v = baselineValues([...registersOfPage(7), ...registersOfPage(9), ...registersOfPage(13), ...registersOfPage(15)]);
  Object.assign(v, {
    displayType: 0,
    mcuHardwareVersion: 100,
    dspSoftwareVersion: 208,
    dspHardwareVersion: 100,
    ratedPower: plant.spec.ratedW / 1000,
    bmsSign: 1,
    normalIndicatorOfElectricityMeter: 1,
    modbusDecodeVersion: 100,
    batteryPackId: 1,
    numberOfBatteryPackCellStringsN: CELLS_PER_MODULE,
    totalNumberOfTemperatureProbesX: 4,
    HM6_0X04_94: 1,
  });
  return v;
}

/** Updates `v` in place from the plant's state, the settings and the device's condition. */
export function singlePhaseReadings(v: Values, plant: Plant, settings: PlantSettings, c: DeviceCondition): Values {
  const s = plant.state;
  const t = s.today;
  const T = s.total;
  const volts = plant.batteryVoltage();
  const gridV = r1(s.gridV[0]);
  const acOut = s.pvW + s.batteryW;
  const q = reactivePower(s);
  Object.assign(v, {
    mcuSoftwareVersion: c.firmware,
    currentModeOfTheSystem: s.effectiveMode,
    systemRunStatus: systemState(s, c.running),
    dcdcTemperature: r1(s.inverterC - 4),
    countryCode: plant.spec.site.countryCode,
    busVoltage: 380,
    dailyPowerGeneration: r1(t.pv),
    totalPowerGeneration: r1(T.pv),
    batteryEnergy: r1((plant.capacityKwh() * s.soc) / 100),
    pv1Voltage: r1(360 + s.pvW / 60),
    pv1Current: r1((s.pvW * s.pv1Share) / 380),
    pv1Power: Math.round(s.pvW * s.pv1Share),
    pv2Voltage: r1(340 + s.pvW / 70),
    pv2Current: r1((s.pvW * (1 - s.pv1Share)) / 360),
    pv2Power: Math.round(s.pvW * (1 - s.pv1Share)),
    batteryStatus: batteryState(s),
    batteryVoltage: r1(volts),
    batteryCurrent: r1(s.batteryW / Math.max(1, volts)),
    batteryPower: s.batteryW,
    batteryTotalSoc: Math.round(s.soc),
    gridFrequencyA: Math.round(s.gridHz * 100) / 100,
    gridVoltageA: gridV,
    apparentPowerOfThePowerGrid: Math.abs(s.gridW),
    activePowerOfThePowerGrid: s.gridW,
    reactivePowerOfThePowerGrid: q.gridVar,
    ctCurrent: r1(s.gridW / gridV),
    ctPower: s.gridW,
    ctDirection: s.gridW >= 0 ? 0 : 1,
    inverterTemperature: r1(s.inverterC),
    inversionState: inverterState(s),
    inverterOutputFrequencyA: Math.round(s.gridHz * 100) / 100,
    inverterOutputVoltageA: gridV,
    inverterOutputCurrentA: r1(Math.abs(acOut) / gridV),
    invertedApparentPowerA: Math.abs(acOut),
    invertedActivePowerA: acOut,
    invertedReactivePowerA: q.inverterVar,
    loadVoltageA: gridV,
    loadCurrentA: r1(s.loadW / gridV),
    apparentPowerOfLoadA: s.loadW,
    loadActivePowerA: s.loadW,
    loadPowerPercentageA: Math.min(100, Math.round((s.loadW / plant.spec.ratedW) * 100)),
    realTimePowerOfLoad: s.loadW,
    powerConsumption: r1(T.load),
    meterVoltage: gridV,
    currentCombinedActiveEnergy: r1(T.buy + T.sell),
    currentPositiveActiveEnergy: r1(T.buy),
    currentReverseActiveEnergy: r1(T.sell),
    electricityMeterCurrent: r1(s.gridW / gridV),
    electricityMeterPower: s.gridW,
    electricityMeterPowerFactor: 0.99,
    electricityMeterFrequency: Math.round(s.gridHz * 100) / 100,
    usbStatus: 0,
    runTimeDay: Math.floor(s.runSeconds / 86_400),
    runTimeHour: Math.floor((s.runSeconds % 86_400) / 3600),
    runTimeMinute: Math.floor((s.runSeconds % 3600) / 60),
    runTimeSecond: Math.floor(s.runSeconds % 60),
    dailyElectricityConsumption: r1(t.load),
    accumulatedElectricityConsumption: r1(T.load),
    dailyGridConnectionVolume: r1(t.sell),
    accumulatedGridConnectionQuantity: r1(T.sell),
    dailyElectricityPurchase: r1(t.buy),
    accumulatedPurchasingPower: r1(T.buy),
    dailyChargingCapacity: r1(t.charge),
    accumulatedChargingCapacity: r1(T.charge),
    dailyDischargeCapacity: r1(t.discharge),
    accumulatedDischargeCapacity: r1(T.discharge),
    intermediateBusbarVoltage: 380,
    maximumChargingCurrentAllowedByTheInverterForTheBattery: r1(settings.chargeCurrentA),
    maximumDischargeCurrentAllowedByTheInverterForTheBattery: r1(settings.dischargeCurrentA),
    HM_0X04_117: c.upgradePercent,
    HM_0X04_160: c.faultLevel,
    HM_0X04_51: r1(s.inverterC - 3),
    HM_0X04_434: s.generatorW,
    HM_0X04_430: s.generatorW > 0 ? gridV : 0,
    HM_0X04_432: s.generatorW > 0 ? 50 : 0,
    HM_0X04_436: s.generatorW > 0 ? 4 : 0,
    currentCurrent: Math.round((s.batteryW / Math.max(1, volts)) * -1000),
    ambientTemperature: r1(s.ambientC),
    mosTemperature: r1(s.batteryC + 3),
    HM6_0X04_95: gridV,
    HM6_0X04_104_105: s.gridW,
    HM6_0X04_107: Math.round(s.gridHz * 100) / 100,
    HM6_0X04_461: Math.round(s.soc),
    HM6_0X04_464_465: s.batteryW,
    HM6_0X04_466_467: acOut,
  });
  for (let i = 0; i < CELLS_PER_MODULE; i++) v[`cellVoltage${i + 1}`] = s.cellMv[i] ?? 3300;
  for (let i = 0; i < 4; i++) v[`cellTemperature${i + 1}`] = r1(s.cellC[i * 4] ?? s.batteryC);
  for (const [id, bits] of c.alarmWords) if (id in v) v[id] = bits;
  return v;
}

/** Settings (pages 8, 9, 11) of a single-phase inverter as it leaves the factory. */
export function singlePhaseSettings(plant: Plant): Values {
  const settable = REGISTERS.filter(
    (r) =>
      r.product === "single" && r.access === "readWrite" && [8, 9, 11].some((p) => r.page === p || r.alsoOnPages.includes(p)),
  );
  const v = baselineValues(settable);
  Object.assign(v, {
    systemModeSet: 1,
    systemModeSettings: 1,
    timingModeType: 2,
    countryCode: plant.spec.site.countryCode,
    batteryTypeSet: 1,
    antiBackflowPowerPercentage: 100,
    maximumOutputPowerPercentage: 100,
    inverterActivePowerSetting: 100,
    pvActivePowerSetting: 100,
  });
  Object.assign(v, BATTERY_DEFAULTS.single);
  Object.assign(v, factorySchedule("single"));
  for (let h = 0; h < 24; h++) v[`HM6_0X03_${196 + h}`] = 1;
  return v;
}
