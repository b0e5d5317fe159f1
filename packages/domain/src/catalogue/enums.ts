import { ENUM_TABLE } from "./enums.generated.ts";

/** Every enumeration's name: enums.tsv filters, settings' option lists and the enumerations of spec §4. */
export type EnumName = keyof typeof ENUM_TABLE;
/** The codes of one enumeration, e.g. `EnumValue<"systemModeFilter">` is 0 | 1 | … | 7. */
export type EnumValue<N extends EnumName> = (typeof ENUM_TABLE)[N]["values"][number];

export const ENUMS: Readonly<Record<EnumName, { source: string; values: readonly number[] }>> = ENUM_TABLE;
export const ENUM_NAMES = Object.keys(ENUM_TABLE).sort() as EnumName[];

export function isEnumName(name: string): name is EnumName {
  return Object.hasOwn(ENUM_TABLE, name);
}

/** i18n key of one enumeration value, e.g. `enums:systemModeFilter.4`. */
export function enumLabelKey(name: EnumName, value: number): string {
  return `enums:${name}.${value}`;
}

export function isEnumValue<N extends EnumName>(name: N, value: number): value is EnumValue<N> {
  return (ENUM_TABLE[name].values as readonly number[]).includes(value);
}

/**
 * The enumerations of spec §4 under the names the reference UI gives them (aliases of ENUM_TABLE).
 */
export const SPEC_ENUMS = {
  systemRunState: "systemStateFilter",
  gridState: "GridStateFilter",
  inverterState: "invertingStateFilter",
  systemMode: "systemModeFilter",
  batteryState: "batteryStatusFilter",
  batteryChargeState: "chargeFilter",
  batteryWorkState: "systemWorkFilter",
  batteryWorkState03: "TP_0X04_30Filter",
  batteryWorking: "batteryWorkFilter",
  serialUpgrade: "TP_0X04_10Filter",
  selfCheckItems: "TP_0X04_14Filter",
  batteryMaintenance: "batteryMaintenance",
  powerOnStage: "powerOnStageFilter",
  powerOffReason: "reasonFilter",
  mainContactor: "connectFilter",
  faultStatus: "faultStatusFilter",
  bmsFlag: "BMSFilter",
  ctFlag: "CTFilter",
  meterFlag: "meterNormalFilter",
  selfCheck: "selfCheckFilter",
  usbStatus: "USBFilter",
  usbOperationResult: "TP_0X04_8Filter",
  energyFlow: "energyFlowFilter",
  systemLock: "systemLockStatusSerialNumberValFilter",
  selfTestType: "selfTestTypeFilter",
  heatingEnable: "heatingEnableFilter",
  heatingState: "heatingState",
  fanState: "fanState",
  displayType: "displayTypeValFilter",
  countryCode: "countryCodeFilter",
  timeZone: "timeZoneFilter",
  deviceStatus: "devStatusFilter",
  onlineStatus: "onlineStatusFilter",
  updateStatus: "updateStatusFilter",
  updateType: "updateType",
  appType: "appType",
  feedbackType: "feedbackTypeFilter",
  feedbackState: "feedbackStateFilter",
  logoutReason: "logoutTypeFilter",
  faultLevel: "faultLevelFilter",
  faultOccurrence: "faultOccurrence",
  addressGrade: "addGradeFilter",
  documentType: "dataTypeList",
  userType: "userTypeFilter",
  generatorControl: "generatorControl",
  generatorState: "generatorState",
  generatorSwitch: "generatorSwitchFilter",
  deviceCommand: "deviceCommand",
  australiaRegion: "australiaRegion",
  islandSetting: "islandSetting",
  reactivePowerMode: "reactivePowerMode",
  voltWattType: "voltWattType",
  pfWattType: "pfWattType",
  gridSamplingFilter: "gridSamplingFilter",
  scheduleType: "scheduleType",
  serialParity: "serialParity",
  serialStopBits: "serialStopBits",
  neutralConnection: "neutralConnection",
  wiringSystem: "wiringSystem",
  drm: "drmEnable",
  ipAllocation: "ipAllocation",
  hvBatteryType: "hvBatteryType",
  batteryChemistry: "batteryChemistry",
  inverterModel: "inverterModel",
  meterModel: "meterModel",
  batteryDisplayMode: "batteryDisplayMode",
  operatingModeCategory: "operatingModeCategory",
  modeRecordState: "modeRecordState",
  registrationState: "registrationState",
  upgradeVersionState: "upgradeVersionState",
  cancellationReview: "cancellationReview",
  referralCashOut: "referralCashOut",
  userStatus: "userStatus",
  messageDisplay: "messageDisplay",
  phaseType: "phaseType",
  dongleType: "dongleType",
  enableState: "enableState",
} as const satisfies Record<string, EnumName>;
