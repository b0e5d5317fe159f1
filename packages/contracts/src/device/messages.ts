import { ENUMS, FAULT_LIMITS } from "@ess/domain";
import { z } from "zod";

/**
 * JSON payloads of the device protocol (format 1; `v` is the payload format). Register values in
 * writes are raw register words as the device stores them (engineering value ÷ scale), so a device
 * never does floating-point arithmetic.
 */
const v1 = z.literal(1);
/** Request ids: chosen by the console, echoed by the device. */
const requestId = z.number().int().min(1).max(0xffffffff);
const registerKey = z.string().regex(/^[A-Za-z0-9_]{1,64}$/);

export const deviceStatusPayload = z.enum(["online", "offline"]);
export type DeviceStatusPayload = z.infer<typeof deviceStatusPayload>;

/** Console → device `cmd/read`: publish page `page` as a frame of kind `page` with this id. */
export const pageReadRequest = z.object({ v: v1, id: requestId, page: z.number().int().min(0).max(65535) });
export type PageReadRequest = z.infer<typeof pageReadRequest>;

/** Console → device `cmd/write`: set registers; all or nothing, answered on `ack`. */
export const settingWriteRequest = z.object({
  v: v1,
  id: requestId,
  values: z
    .array(z.object({ key: registerKey, raw: z.union([z.number().int(), z.string().max(64)]) }))
    .min(1)
    .max(64),
});
export type SettingWriteRequest = z.infer<typeof settingWriteRequest>;

/** Console → device `cmd/command`: one of the device commands (enumeration `deviceCommand`). */
export const commandRequest = z.object({
  v: v1,
  id: requestId,
  command: z
    .number()
    .int()
    .refine((c) => (ENUMS.deviceCommand.values as readonly number[]).includes(c), "unknown command"),
});
export type CommandRequest = z.infer<typeof commandRequest>;

/** Console → device `cmd/ota`: fetch and flash a firmware package, reporting on `ota`. */
export const otaRequest = z.object({
  v: v1,
  id: requestId,
  firmwareType: z.number().int().min(0).max(255),
  version: z.string().min(1).max(32),
  url: z.string().url(),
  size: z.number().int().positive(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** CRC-32 of the package (8 hex digits), which the device reports back once it has it all. */
  crc32: z
    .string()
    .regex(/^[0-9a-f]{8}$/)
    .optional(),
  bmsId: z.number().int().min(0).max(9).optional(),
  bcuId: z.number().int().min(101).max(103).optional(),
});
export type OtaRequest = z.infer<typeof otaRequest>;

/**
 * Why a device refused a write or command. `needsStandby`: the setting applies only in standby
 * or shut down (spec §4); `readOnly`, `unknownKey`, `outOfRange`: the value itself; `busy`: an
 * upgrade or another operation is running; `unsupported`: not on this model.
 */
export const REFUSAL_CODES = ["needsStandby", "readOnly", "unknownKey", "outOfRange", "busy", "unsupported"] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

/** Device → console `ack`: the outcome of a write or command. */
export const deviceAck = z.object({
  v: v1,
  id: requestId,
  ok: z.boolean(),
  code: z.enum(REFUSAL_CODES).optional(),
  /** The register a refusal concerns. */
  key: registerKey.optional(),
});
export type DeviceAck = z.infer<typeof deviceAck>;

/**
 * `accepted`: the device took the order (update status 1 confirmed); `downloading`, `flashing`,
 * `verifying`: under way (2 upgrading); then `succeeded` (4) or `failed` (3, with `resultCode`).
 */
export const OTA_STAGES = ["accepted", "downloading", "flashing", "verifying", "succeeded", "failed"] as const;

/** Device → console `ota`: progress of the upgrade started by request `id`. */
export const otaProgress = z.object({
  v: v1,
  id: requestId,
  stage: z.enum(OTA_STAGES),
  percent: z.number().min(0).max(100),
  bytesReceived: z.number().int().nonnegative().optional(),
  crcReceived: z.string().max(16).optional(),
  /** USB/upgrade result code of `TP_0X04_8Filter` when the upgrade failed. */
  resultCode: z.number().int().optional(),
  /** The version the device runs after a success. */
  version: z.string().max(32).optional(),
});
export type OtaProgress = z.infer<typeof otaProgress>;

/** Device → console `alarm`: an alarm bit of an alarm or state word that set or cleared. */
export const alarmEvent = z.object({
  v: v1,
  ts: z.number().int().positive(),
  /** The alarm or state word (a bitfield register) and the bit that changed. */
  key: registerKey,
  bit: z.number().int().min(0).max(31),
  state: z.enum(["occur", "disappear"]),
  /** The device's fault code, when it has one for this bit (a code of the fault catalogue's range). */
  code: z.number().int().min(FAULT_LIMITS.code.min).max(FAULT_LIMITS.code.max).optional(),
  level: z.number().int().min(1).max(3).optional(),
  /** Sent late (kept while offline): history, which neither holds an alarm open nor reopens one. */
  buffered: z.boolean().optional(),
});
export type AlarmEvent = z.infer<typeof alarmEvent>;
