/**
 * The inverter models a device may be registered as: the import and the device form refuse any
 * other ("unknown model"). Each model fixes the phase type; its rated power is the default of the
 * device's rated power when none is given.
 */
export interface DeviceModel {
  code: string;
  /** 1 single phase, 2 three phase. */
  phaseType: 1 | 2;
  ratedPowerKw: number;
}

export const DEVICE_MODELS: readonly DeviceModel[] = [
  { code: "H5K", phaseType: 1, ratedPowerKw: 5 },
  { code: "H6K", phaseType: 1, ratedPowerKw: 6 },
  { code: "T10K", phaseType: 2, ratedPowerKw: 10 },
  { code: "T12K", phaseType: 2, ratedPowerKw: 12 },
  { code: "T15K", phaseType: 2, ratedPowerKw: 15 },
  { code: "T20K", phaseType: 2, ratedPowerKw: 20 },
];

export const DEVICE_MODEL_CODES = DEVICE_MODELS.map((m) => m.code);

export function deviceModel(code: string): DeviceModel | undefined {
  return DEVICE_MODELS.find((m) => m.code === code);
}

/** Serial numbers: letters and digits, 6 to 32 characters. */
export const SERIAL_RULE = { min: 6, max: 32, pattern: /^[A-Za-z0-9]+$/ } as const;

/**
 * Device status (spec §4: 0 normal, 1 maintenance, 2 offline, 3 error) as the console shows it:
 * offline whenever the device is not connected, otherwise what was set on it.
 */
export const DEVICE_STATUS = { normal: 0, maintenance: 1, offline: 2, error: 3 } as const;

/** Dongle types (enum dongleType): 0 WiFi, 1 4G. Battery types (enum hvBatteryType): 0 450V, 1 800V, 2 LESY. */
export const DONGLE_TYPES = [0, 1] as const;
export const BATTERY_TYPES = [0, 1, 2] as const;
/** Country codes (enum countryCodeFilter). */
export const COUNTRY_CODES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14] as const;
/** Australia: NMI and grid company are asked for only there. */
export const COUNTRY_AUSTRALIA = 3;

/** Columns of the device import file, in the template's order. */
export const DEVICE_IMPORT_COLUMNS = [
  "sn",
  "name",
  "model",
  "timeZone",
  "dongleType",
  "batteryType",
  "countryCode",
  "ratedPower",
  "loadCapacity",
  "nmi",
  "gridCompany",
  "remarks",
] as const;
export const DEVICE_IMPORT_MAX_ROWS = 5_000;
