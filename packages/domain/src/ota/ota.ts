/**
 * Firmware versions and over-the-air upgrades (spec §2 upgrade-info management and OTA, §3 Version
 * record, §4 app/firmware types, update status, upgrade version state).
 */

/** App/firmware type codes (enumeration `appType`): 0 Android and 1 iOS are apps, 2–11 firmware. */
export const APP_TYPES = [0, 1] as const;
export const FIRMWARE_TYPES = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11] as const;
export const VERSION_TYPES = [...APP_TYPES, ...FIRMWARE_TYPES] as const;
export type VersionType = (typeof VERSION_TYPES)[number];

export const isAppType = (type: number) => (APP_TYPES as readonly number[]).includes(type);
export const isFirmwareType = (type: number) => (FIRMWARE_TYPES as readonly number[]).includes(type);

/** The high-voltage battery's BCU module (9) is addressed by BCU id; its BMS modules (10) also by BMS index. */
export const HV_BCU_TYPE = 9;
export const HV_BMS_TYPE = 10;
export const BCU_IDS = [101, 102, 103] as const;
export const BMS_INDEX_MAX = 9;
export const needsBcuId = (type: number) => type === HV_BCU_TYPE || type === HV_BMS_TYPE;
export const needsBmsId = (type: number) => type === HV_BMS_TYPE;

/** Upgrade version state (enumeration `upgradeVersionState`): 0 to be issued, 1 distributed. */
export const VERSION_STATE = { toBeIssued: 0, distributed: 1 } as const;

/** Update status of one device's upgrade (enumeration `updateStatusFilter`). */
export const UPDATE_STATUS = { pending: 0, confirmed: 1, upgrading: 2, failed: 3, succeeded: 4 } as const;
export type UpdateStatus = (typeof UPDATE_STATUS)[keyof typeof UPDATE_STATUS];
export const OPEN_UPDATE_STATUSES = [0, 1, 2] as const;

/**
 * Why an upgrade failed, as the console tells it: the device's own result (code of
 * `TP_0X04_8Filter` in `resultCode`) or what the console saw (no answer, device gone, cancelled).
 * Labels: i18n `ota:cause.<cause>`.
 */
export const FAILURE_CAUSES = [
  "crc",
  "versionMismatch",
  "noUpgradeNeeded",
  "unsupported",
  "stateNotAllowed",
  "writeFailed",
  "badLength",
  "outOfMemory",
  "cannotRun",
  "download",
  "deviceFailed",
  "timeout",
  "offline",
  "cancelled",
] as const;
export type FailureCause = (typeof FAILURE_CAUSES)[number];

/** Device result codes (main-control upgrade failures of `TP_0X04_8Filter`) to causes. */
export const RESULT_CODE_CAUSES: Readonly<Record<number, FailureCause>> = {
  32866: "outOfMemory",
  32867: "noUpgradeNeeded",
  32868: "unsupported",
  32869: "stateNotAllowed",
  32870: "writeFailed",
  32871: "badLength",
  32872: "crc",
  32873: "cannotRun",
  32874: "versionMismatch",
  32772: "deviceFailed",
  32864: "deviceFailed",
  32865: "download",
};

export function causeOfResult(code: number | undefined | null): FailureCause {
  return (code !== undefined && code !== null && RESULT_CODE_CAUSES[code]) || "deviceFailed";
}

/** Campaign states. Labels: i18n `ota:campaignState.<state>`. */
export const CAMPAIGN_STATES = ["scheduled", "running", "waiting", "paused", "cancelled", "completed"] as const;
export type CampaignState = (typeof CAMPAIGN_STATES)[number];

/** Spec §9: an OTA schedule has at most three upgrade times (none repeated, at least one). */
export const OTA_SCHEDULE_MAX = 3;
export const CAMPAIGN_BATCH_MAX = 1000;

/** Uploaded packages: size ceiling and the file kinds a device can take. */
export const PACKAGE_MAX_BYTES = 64 * 1024 * 1024;
export const PACKAGE_EXTENSIONS = ["bin", "hex", "img", "fw", "upd", "pkg", "zip", "gz", "tar", "apk", "ipa"] as const;

/** Magic numbers of the container formats whose content we can check. */
const MAGIC: Readonly<Record<string, readonly number[]>> = {
  zip: [0x50, 0x4b],
  apk: [0x50, 0x4b],
  ipa: [0x50, 0x4b],
  gz: [0x1f, 0x8b],
};

export function extensionOf(name: string): string {
  const m = /\.([A-Za-z0-9]+)$/.exec(name.trim());
  return m ? (m[1] as string).toLowerCase() : "";
}

/** Why a package is refused (an i18n key of namespace `firmware`), or null when it is acceptable. */
export function packageProblem(name: string, bytes: Uint8Array): string | null {
  const ext = extensionOf(name);
  if (!(PACKAGE_EXTENSIONS as readonly string[]).includes(ext)) return "firmware:packageType";
  if (bytes.length === 0) return "firmware:packageRequired";
  if (bytes.length > PACKAGE_MAX_BYTES) return "firmware:packageTooLarge";
  const magic = MAGIC[ext];
  if (magic && !magic.every((b, i) => bytes[i] === b)) return "firmware:packageType";
  return null;
}

/** Version numbers as the devices show them: digits separated by dots (1.32, 2.0.7). */
export const VERSION_CODE_PATTERN = /^\d{1,5}(\.\d{1,5}){0,3}$/;

/**
 * The version a firmware register holds (hundredths: 132 → "1.32"), the way the simulator and the
 * inverters store the MCU/DSP versions.
 */
export const versionFromRegister = (raw: number) => (raw / 100).toFixed(2);
export const registerFromVersion = (version: string) => {
  const value = Math.round(Number.parseFloat(version) * 100);
  return Number.isFinite(value) && value > 0 && value <= 65535 ? value : null;
};
