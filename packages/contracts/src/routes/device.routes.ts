import { BATTERY_TYPES, COUNTRY_CODES, DONGLE_TYPES, deviceModel, ENUMS, SERIAL_RULE } from "@ess/domain";
import { z } from "zod";
import { instant, optionalText, optionalTimeZone } from "../account-fields.ts";
import { TOPIC_ROOT } from "../device/topics.ts";
import { pageOf } from "../envelope.ts";
import { blankToUndefined, idBody, idFilter, idQuery, listQuery, smallIntFilter, textFilter } from "../list.ts";
import { defineRoute } from "../route.ts";
import { instantInput, text } from "../text.ts";
import { ieeeActiveControl } from "./grid-centre.routes.ts";

const oneOf = <T extends readonly number[]>(values: T, message: string) =>
  z
    .number()
    .int()
    .refine((v) => values.includes(v), { message });
const nullableOneOf = <T extends readonly number[]>(values: T, message: string) =>
  z.preprocess((v) => (v === "" || v === undefined ? null : v), oneOf(values, message).nullable());
const optionalKw = z.preprocess((v) => (v === "" || v === undefined ? null : v), z.number().min(0).max(10_000).nullable());
/** Clocks of the caller and the console may differ by this much before a time counts as future. */
const CLOCK_SKEW_MS = 5 * 60_000;
/**
 * When the device was installed, if staff know it (a device registered after the fact); absent:
 * set when an installer is bound or the device first reports, and left as it is by an edit.
 */
const installedAt = z.preprocess(
  blankToUndefined,
  instantInput()
    .refine((at) => at.getTime() <= Date.now() + CLOCK_SKEW_MS, { message: "devices:installedInFuture" })
    .optional(),
);

export const serialNumber = text()
  .trim()
  .min(SERIAL_RULE.min)
  .max(SERIAL_RULE.max)
  .regex(SERIAL_RULE.pattern)
  // Serial numbers are printed in capitals; stored so, "ess01" and "ESS01" are the same device.
  .transform((s) => s.toUpperCase());
export const deviceName = text().trim().min(1).max(64);
/** A catalogue model code (or an earlier code of the model), stored as the code. */
export const modelCode = text()
  .trim()
  .refine((v) => deviceModel(v) !== undefined, { message: "devices:unknownModel" })
  .transform((v) => deviceModel(v)?.code ?? v);

/**
 * A device as the list and the details header show it (spec §3 Device). Model, rated power and
 * country code are what the device reports, else what staff typed (domain `shownIdentityValue`);
 * `registered` and `reported` keep both apart, so the console can say where a value comes from.
 */
export const deviceRecord = z.object({
  id: z.number().int(),
  sn: z.string(),
  name: z.string(),
  model: z.string().nullable(),
  /** 1 single phase, 2 three phase. */
  phaseType: z.number().int().nullable(),
  /** 0 offline, 1 online, 2 upgrading. */
  onlineStatus: z.number().int(),
  /** 0 normal, 1 maintenance, 2 offline, 3 error. */
  status: z.number().int(),
  /** Battery voltage class (enum hvBatteryType), as staff typed it. */
  batteryType: z.number().int().nullable(),
  /** Battery chemistry (enum batteryChemistry), as the device's battery type setting reports it. */
  batteryChemistry: z.number().int().nullable(),
  dongleType: z.number().int().nullable(),
  machineType: z.string(),
  countryCode: z.number().int().nullable(),
  timeZone: z.string().nullable(),
  ratedPower: z.number().nullable(),
  loadCapacity: z.number().nullable(),
  nmi: z.string(),
  gridCompany: z.string(),
  remarks: z.string(),
  versions: z.object({ dongle: z.string(), mcu: z.string(), dsp: z.string(), battery: z.string() }),
  orgId: z.number().int().nullable(),
  orgName: z.string().nullable(),
  installerOrgId: z.number().int().nullable(),
  installerName: z.string().nullable(),
  ownerId: z.number().int().nullable(),
  ownerName: z.string().nullable(),
  userBoundAt: instant.nullable(),
  installedAt: instant.nullable(),
  lastSeenAt: instant.nullable(),
  createTime: instant,
  /** What staff typed at registration or edit (the form edits these). */
  registered: z.object({
    model: z.string().nullable(),
    ratedPower: z.number().nullable(),
    countryCode: z.number().int().nullable(),
  }),
  /** What the device last reported of itself (null: not reported), and when that last changed. */
  reported: z.object({
    model: z.string().nullable(),
    ratedPower: z.number().nullable(),
    countryCode: z.number().int().nullable(),
    batteryChemistry: z.number().int().nullable(),
    at: instant.nullable(),
  }),
  /**
   * The utility's control (IEEE 2030.5) the device is under now: applied to its settings, so a
   * user's contradicting setting is refused (spec §6). Null when it is under none.
   */
  gridControl: ieeeActiveControl.nullable(),
});
export type DeviceRecord = z.infer<typeof deviceRecord>;

const deviceFields = {
  name: deviceName,
  model: modelCode,
  remarks: optionalText(500),
  timeZone: optionalTimeZone,
  dongleType: nullableOneOf(DONGLE_TYPES, "devices:badDongleType").default(null),
  machineType: optionalText(64),
  batteryType: nullableOneOf(BATTERY_TYPES, "devices:badBatteryType").default(null),
  countryCode: nullableOneOf(COUNTRY_CODES, "devices:badCountryCode").default(null),
  /** kW; the model's rated power when absent. */
  ratedPower: optionalKw.default(null),
  loadCapacity: optionalKw.default(null),
  nmi: optionalText(32),
  gridCompany: optionalText(64),
  installedAt,
};
export const deviceCreate = z.object({
  sn: serialNumber,
  ...deviceFields,
  /** The selling organisation: the caller's own when absent. */
  orgId: z.number().int().min(1).nullable().default(null),
});
export const deviceEdit = z.object({
  id: z.number().int().min(1),
  ...deviceFields,
  /** 0 normal, 1 maintenance, 3 error. */
  status: z
    .number()
    .int()
    .refine((v) => [0, 1, 3].includes(v), { message: "devices:badStatus" })
    .default(0),
});

/** The catalogue's time zones (enum timeZoneFilter): whole hours from UTC, lowest and highest. */
const UTC_OFFSETS = [Math.min(...ENUMS.timeZoneFilter.values), Math.max(...ENUMS.timeZoneFilter.values)] as const;

export const DEVICE_SORT = ["id", "sn", "name", "createTime", "lastSeenAt", "ratedPower", "onlineStatus"] as const;
export const deviceListQuery = listQuery(DEVICE_SORT, {
  name: textFilter,
  sn: textFilter,
  onlineStatus: smallIntFilter,
  status: smallIntFilter,
  phaseType: smallIntFilter,
  /** Battery voltage class as typed (enum hvBatteryType). */
  batteryType: smallIntFilter,
  /** Battery chemistry as reported (enum batteryChemistry). */
  batteryChemistry: smallIntFilter,
  /** A catalogue model code matches exactly (its earlier codes too); other text as a substring. */
  model: textFilter,
  timeZone: textFilter,
  /**
   * One of the catalogue's time zones (enum timeZoneFilter, UTC−11 … UTC+13): devices whose zone is
   * at that many whole hours from UTC now (daylight saving included; Kolkata's +5:30 is East 5).
   */
  utcOffset: z.preprocess(blankToUndefined, z.coerce.number().int().min(UTC_OFFSETS[0]).max(UTC_OFFSETS[1]).optional()),
  /** Owner's account name or name (substring). */
  owner: textFilter,
  installerOrgId: idFilter,
  /** A distributor or dealer: devices it sold or installed, itself or below it. */
  orgId: idFilter,
  /** The country code shown: reported by the device, else typed. */
  countryCode: smallIntFilter,
  /** Any of the device's firmware versions (substring). */
  firmwareVersion: textFilter,
});
export type DeviceListQuery = z.input<typeof deviceListQuery>;
export type DeviceListFilters = Omit<z.output<typeof deviceListQuery>, "current" | "size">;

/**
 * A device's broker credentials as issued (at registration, import or reset). The plain secret is
 * in this answer only: the console keeps a salted digest, so it can never show the secret again.
 */
export const issuedCredential = z.object({
  sn: z.string(),
  /** MQTT user name, and client id: the serial number. */
  username: z.string(),
  secret: z.string(),
  /** Every topic the device may use lies below this (docs/device-protocol.md). */
  topicPrefix: z.string(),
});
export type IssuedCredential = z.infer<typeof issuedCredential>;
/** The topic prefix of one device: `ess/v1/{sn}/`. */
export const deviceTopicPrefix = (sn: string) => `${TOPIC_ROOT}/${sn}/`;

/** A registered device and the broker credentials issued with it (shown once). */
export const createdDevice = deviceRecord.extend({ credential: issuedCredential });
export type CreatedDevice = z.infer<typeof createdDevice>;

export const importRowResult = z.object({
  /** 1-based line of the file (the header is line 1). */
  line: z.number().int(),
  sn: z.string(),
  ok: z.boolean(),
  /** Translated reasons of a failed row. */
  reasons: z.array(z.string()),
});
export const importResult = z.object({
  succeeded: z.number().int(),
  failed: z.number().int(),
  rows: z.array(importRowResult),
  /** The broker credentials of each device registered, in file order (shown once). */
  credentials: z.array(issuedCredential),
});
export type ImportResult = z.infer<typeof importResult>;

export const renameBody = z.object({
  id: z.number().int().min(1),
  /** Rename as the device's user or as its installer (spec §6 binding rules). */
  as: z.enum(["user", "installer"]),
  name: text().trim().min(1, { message: "devices:newNameRequired" }).max(64),
});

const deviceScope = (...refs: { in: "query" | "body"; field: string; entity: "device" | "organisation" | "user" }[]) =>
  ({ entity: "device", refs }) as const;
const byId = { in: "body", field: "id", entity: "device" } as const;

/** Device management (spec §2 Device management; reference paths /admin/lsydevice/...). */
export const deviceRoutes = {
  page: defineRoute({
    method: "GET",
    path: "/admin/lsydevice/page",
    summary: "Devices the caller may see, filtered, sorted and paged",
    tags: ["devices"],
    access: { permission: "device.view" },
    query: deviceListQuery,
    data: pageOf(deviceRecord),
    scope: deviceScope(
      { in: "query", field: "orgId", entity: "organisation" },
      { in: "query", field: "installerOrgId", entity: "organisation" },
    ),
  }),
  export: defineRoute({
    method: "GET",
    path: "/admin/lsydevice/export",
    summary: "The same devices as an Excel workbook (at most 100,000 rows)",
    tags: ["devices"],
    access: { permission: "device.export" },
    query: deviceListQuery.omit({ current: true, size: true }),
    data: z.string().describe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
    raw: true,
    scope: deviceScope(
      { in: "query", field: "orgId", entity: "organisation" },
      { in: "query", field: "installerOrgId", entity: "organisation" },
    ),
  }),
  info: defineRoute({
    method: "GET",
    path: "/admin/lsydevice/info",
    summary: "One device with its owner, installer and binding times",
    tags: ["devices"],
    access: { permission: "device.view" },
    query: idQuery,
    data: deviceRecord,
    scope: deviceScope({ in: "query", field: "id", entity: "device" }),
  }),
  save: defineRoute({
    method: "POST",
    path: "/admin/lsydevice/save",
    summary: "Register a device; the answer carries its broker secret, which is never shown again",
    tags: ["devices"],
    access: { permission: "device.edit" },
    body: deviceCreate,
    data: createdDevice,
    scope: deviceScope({ in: "body", field: "orgId", entity: "organisation" }),
  }),
  edit: defineRoute({
    method: "POST",
    path: "/admin/lsydevice/edit",
    summary: "Change a device's registration",
    tags: ["devices"],
    access: { permission: "device.edit" },
    body: deviceEdit,
    data: deviceRecord,
    scope: deviceScope(byId),
  }),
  del: defineRoute({
    method: "POST",
    path: "/admin/lsydevice/del",
    summary: "Delete a device (its serial number may be registered again)",
    tags: ["devices"],
    access: { permission: "device.delete" },
    body: idBody,
    data: z.null(),
    scope: deviceScope(byId),
  }),
  resetSecret: defineRoute({
    method: "POST",
    path: "/admin/lsydevice/resetSecret",
    summary: "Issue a new broker secret for a device (the old one is refused from its next connection)",
    tags: ["devices"],
    access: { permission: "device.edit" },
    body: idBody,
    data: issuedCredential,
    scope: deviceScope(byId),
  }),
  importTemplate: defineRoute({
    method: "GET",
    path: "/admin/lsydevice/import/template",
    summary: "The device import template (an Excel workbook with the column header and one example row)",
    tags: ["devices"],
    access: { permission: "device.import" },
    data: z.string().describe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
    raw: true,
    scope: { entity: "tenant" },
  }),
  import: defineRoute({
    method: "POST",
    path: "/admin/lsydevice/importExcel",
    summary:
      "Register devices from an Excel (.xlsx) or CSV file: each row succeeds or fails with its reasons; failed rows change nothing",
    tags: ["devices"],
    access: { permission: "device.import" },
    body: z.object({
      fileName: text().max(200).default("devices.csv"),
      /** csv: the file's text; xlsx: the workbook's bytes in base64 (its first sheet is read). */
      format: z.enum(["csv", "xlsx"]).default("csv"),
      /** The file (UTF-8 text, comma or semicolon separated; or base64), header row first. */
      content: text().min(1, { message: "devices:importEmpty" }).max(900_000),
      orgId: z.number().int().min(1).nullable().default(null),
    }),
    data: importResult,
    scope: deviceScope({ in: "body", field: "orgId", entity: "organisation" }),
  }),
  installers: defineRoute({
    method: "GET",
    path: "/admin/lsydevice/listAgent",
    summary: "Installer companies the caller may bind devices to",
    tags: ["devices"],
    access: { permission: "device.view" },
    data: z.array(z.object({ id: z.number().int(), name: z.string() })),
    scope: { entity: "organisation" },
  }),
  bindInstaller: defineRoute({
    method: "POST",
    path: "/admin/lsydevice/bindAgent",
    summary: "Bind an installer company to a device (the installation time is set)",
    tags: ["devices"],
    access: { permission: "device.bind" },
    body: z.object({ id: z.number().int().min(1), installerOrgId: z.number().int().min(1) }),
    data: deviceRecord,
    scope: deviceScope(byId, { in: "body", field: "installerOrgId", entity: "organisation" }),
  }),
  unbindInstaller: defineRoute({
    method: "POST",
    path: "/admin/lsydevice/unbindAgent",
    summary: "Unbind the installer company of a device",
    tags: ["devices"],
    access: { permission: "device.bind" },
    body: idBody,
    data: z.null(),
    scope: deviceScope(byId),
  }),
  bindUser: defineRoute({
    method: "POST",
    path: "/admin/lsydevice/bindUser",
    summary: "Bind an end user (a master user) to a device",
    tags: ["devices"],
    access: { permission: "device.bind" },
    body: z.object({ id: z.number().int().min(1), userId: z.number().int().min(1) }),
    data: deviceRecord,
    scope: deviceScope(byId, { in: "body", field: "userId", entity: "user" }),
  }),
  unbindUser: defineRoute({
    method: "POST",
    path: "/admin/lsydevice/unbindUser",
    summary: "Unbind the end user of a device",
    tags: ["devices"],
    access: { permission: "device.bind" },
    body: idBody,
    data: z.null(),
    scope: deviceScope(byId),
  }),
  rename: defineRoute({
    method: "POST",
    path: "/admin/lsydevice/rename",
    summary: "Rename a device as its user or its installer (refused while none is bound)",
    tags: ["devices"],
    access: { permission: "device.rename" },
    body: renameBody,
    data: deviceRecord,
    scope: deviceScope(byId),
  }),
} as const;
