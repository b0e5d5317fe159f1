/**
 * The inverter models a device may be registered as: the import and the device form refuse any
 * other ("unknown model"). Each model fixes the phase type; its rated power is the default of the
 * device's rated power when none is given.
 *
 * Codes are the names the devices themselves report where they report one (three-phase inverters:
 * "Device Model", TP_0X04_32780_32787), so the list, the details and the device's own information
 * page say the same. Single-phase inverters report no model name; they are known by phase type and
 * rated power (see `identity.ts`). `aliases` are earlier codes of the same model, still accepted
 * in forms and import files and stored as the code.
 */
export interface DeviceModel {
  code: string;
  /** 1 single phase, 2 three phase. */
  phaseType: 1 | 2;
  ratedPowerKw: number;
  aliases?: readonly string[];
}

export const DEVICE_MODELS: readonly DeviceModel[] = [
  { code: "H5K", phaseType: 1, ratedPowerKw: 5 },
  { code: "H6K", phaseType: 1, ratedPowerKw: 6 },
  { code: "H3-10K", phaseType: 2, ratedPowerKw: 10, aliases: ["T10K"] },
  { code: "H3-12K", phaseType: 2, ratedPowerKw: 12, aliases: ["T12K"] },
  { code: "H3-15K", phaseType: 2, ratedPowerKw: 15, aliases: ["T15K"] },
  { code: "H3-20K", phaseType: 2, ratedPowerKw: 20, aliases: ["T20K"] },
];

export const DEVICE_MODEL_CODES = DEVICE_MODELS.map((m) => m.code);

/** The model of a code or of one of its aliases (case and surrounding spaces ignored). */
export function deviceModel(code: string): DeviceModel | undefined {
  const wanted = code.trim().toUpperCase();
  return DEVICE_MODELS.find((m) => m.code === wanted || (m.aliases ?? []).includes(wanted));
}

/** Serial numbers: letters and digits, 6 to 32 characters. */
export const SERIAL_RULE = { min: 6, max: 32, pattern: /^[A-Za-z0-9]+$/ } as const;

/**
 * Device status (spec §4: 0 normal, 1 maintenance, 2 offline, 3 error) as the console shows it:
 * offline whenever the device is not connected, otherwise what was set on it.
 */
export const DEVICE_STATUS = { normal: 0, maintenance: 1, offline: 2, error: 3 } as const;

/**
 * Dongle types (enum dongleType): 0 WiFi, 1 4G. Battery voltage classes (enum hvBatteryType) of a
 * high-voltage battery: 0 450V, 1 800V, 2 LESY — typed by staff, the device does not report it.
 */
export const DONGLE_TYPES = [0, 1] as const;
export const BATTERY_TYPES = [0, 1, 2] as const;
/** Battery chemistries (enum batteryChemistry, the device's battery type setting): 0 lead acid, 1 lithium. */
export const BATTERY_CHEMISTRIES = [0, 1] as const;
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
