import type { ScheduleProduct } from "./schedule/layout.ts";

/**
 * The battery settings an inverter leaves the factory with, which "Restore defaults" (spec §2)
 * writes back: charge and discharge current, the grid-connected and off-grid cut-off SOC, and the
 * buy/sell/use SOC limits of the schedule with their switches (off). The battery type and the
 * charge and discharge voltages are not among them: they belong to the battery pack fitted, and a
 * default would be wrong for most packs. The simulator starts its devices from these values.
 */
export const BATTERY_DEFAULTS: Readonly<Record<ScheduleProduct, Readonly<Record<string, number>>>> = {
  three: {
    TP_0X03_1048: 25,
    TP_0X03_1049: 25,
    TP_0X03_1054: 20,
    TP_0X03_1055: 10,
    TP_0X03_209: 100,
    TP_0X03_210: 0,
    TP_0X03_211: 20,
    TP_0X03_212: 0,
    TP_0X03_213: 10,
    TP_0X03_214: 0,
  },
  single: {
    batteryChargingCurrent: 25,
    batteryDischargeCurrent: 25,
    lowerLimitOfGridConnectedSoc: 20,
    offGridSocLowerLimit: 10,
    HM6_0X03_450: 100,
    HM6_0X03_451: 0,
    HM6_0X03_452: 20,
    HM6_0X03_453: 0,
    HM6_0X03_454: 10,
    HM6_0X03_455: 0,
  },
};

/**
 * The defaults of the registers `shown` (one place of the console restores what it shows) that
 * differ from what the device holds: the change "Restore defaults" sends.
 */
export function batteryDefaultChanges(
  product: ScheduleProduct,
  shown: readonly string[],
  current: Readonly<Record<string, unknown>>,
): Record<string, number> {
  const defaults = BATTERY_DEFAULTS[product];
  return Object.fromEntries(
    shown.flatMap((id) => {
      const value = defaults[id];
      return value === undefined || current[id] === value ? [] : [[id, value] as const];
    }),
  );
}
