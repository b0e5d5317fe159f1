import { BATTERY_CHEMISTRIES, BATTERY_TYPES, COUNTRY_CODES, DEVICE_MODEL_CODES, ENUMS } from "@ess/domain";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import type { OptionSource } from "../../../ui/crud/index.ts";

/** The choices of the device list and forms: domain values labelled by `enums`, or loaded from the server. */
export const DEVICE_OPTIONS = {
  onlineStatus: { values: [0, 1, 2], labelKey: "enums:onlineStatusFilter" },
  status: { values: [0, 1, 2, 3], labelKey: "enums:devStatusFilter" },
  settableStatus: { values: [0, 1, 3], labelKey: "enums:devStatusFilter" },
  phaseType: { values: [1, 2], labelKey: "enums:phaseType" },
  batteryType: { values: BATTERY_TYPES, labelKey: "enums:hvBatteryType" },
  batteryChemistry: { values: BATTERY_CHEMISTRIES, labelKey: "enums:batteryChemistry" },
  dongleType: { values: [0, 1], labelKey: "enums:dongleType" },
  countryCode: { values: COUNTRY_CODES, labelKey: "enums:countryCodeFilter" },
  // Every time zone of the catalogue, west to east.
  utcOffset: { values: [...ENUMS.timeZoneFilter.values].sort((a, b) => a - b), labelKey: "enums:timeZoneFilter" },
  // Model codes are product names: the same in every language.
  model: { key: "device-models", load: async () => DEVICE_MODEL_CODES.map((code) => ({ value: code, label: code })) },
  installers: {
    key: "device-installers",
    load: async () => (await call(API.device.installers)).map((o) => ({ value: o.id, label: o.name })),
  },
  sellers: {
    key: "device-sellers",
    load: async () =>
      (await call(API.org.page, { query: { size: 500 } })).records
        .filter((o) => o.kind !== "installer")
        .map((o) => ({ value: o.id, label: o.name })),
  },
  masterUsers: {
    key: "device-master-users",
    load: async () =>
      (await call(API.endUser.page, { query: { size: 500 } })).records
        .filter((u) => u.parentUserId === null)
        .map((u) => ({ value: u.id, label: `${u.username} (${u.name})` })),
  },
} satisfies Record<string, OptionSource>;
