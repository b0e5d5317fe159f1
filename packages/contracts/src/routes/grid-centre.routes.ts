import { GRID_REGISTRATION_STATES, nmiRefusal } from "@ess/domain";
import { z } from "zod";
import { instant } from "../account-fields.ts";
import { SERIAL_PATTERN } from "../device/topics.ts";
import { pageOf } from "../envelope.ts";
import { blankToUndefined, idFilter, listQuery, smallIntFilter, textFilter, timeFilter } from "../list.ts";
import { defineRoute } from "../route.ts";
import { text } from "../text.ts";

/**
 * The IEEE device management centre (spec §2, §3 IEEE device): the grid sites the console's
 * aggregator client keeps with the utility server, the documents exchanged for each, the commands
 * each received, and the NMI and grid company staff give Australian devices.
 */

const scaledPower = z.object({ value: z.number(), multiplier: z.number().int() });

/**
 * The control in force at a site (packages/domain control-schedule): the modes it sets (a
 * DERControlBase, a default filling the modes the event is silent on), where it comes from
 * (event or program default: mRID, program, primacy), since and until when (null: no end known).
 */
export const ieeeActiveControl = z.object({
  control: z.object({
    opModConnect: z.boolean().optional(),
    opModEnergize: z.boolean().optional(),
    opModFixedW: z.number().optional(),
    opModMaxLimW: z.number().optional(),
    rampTms: z.number().optional(),
    opModImpLimW: scaledPower.optional(),
    opModExpLimW: scaledPower.optional(),
    opModGenLimW: scaledPower.optional(),
    opModLoadLimW: scaledPower.optional(),
    opModStorageTargetW: scaledPower.optional(),
    setGradW: z.number().optional(),
  }),
  kind: z.enum(["event", "default"]),
  mrid: z.string(),
  programMrid: z.string(),
  primacy: z.number().int(),
  since: instant.nullable(),
  until: instant.nullable(),
});
export type IeeeActiveControl = z.infer<typeof ieeeActiveControl>;

/** One grid site with its device. `id` is the device's id (a site is one device's registration). */
export const ieeeDeviceRecord = z.object({
  id: z.number().int(),
  siteId: z.number().int(),
  sn: z.string(),
  nmi: z.string(),
  lfdi: z.string(),
  sfdi: z.string(),
  gridCompany: z.string(),
  registeredState: z.number().int(),
  /** A GRID_FAILURES key of the last failed exchange, null after a success. */
  failure: z.string().nullable(),
  onlineStatus: z.number().int(),
  countryCode: z.number().int().nullable(),
  lastCommandTime: instant.nullable(),
  lastPollTime: instant.nullable(),
  createTime: instant,
  updateTime: instant,
  regularCount: z.number().int(),
  sellCount: z.number().int(),
  emergencyCount: z.number().int(),
  purePvCount: z.number().int(),
  /** Null when nothing is in force (no event, no default, or not worked out yet). */
  activeControl: ieeeActiveControl.nullable(),
});
export type IeeeDeviceRecord = z.infer<typeof ieeeDeviceRecord>;

/** One document received from or sent to the utility server. */
export const ieeeExchangeRecord = z.object({
  id: z.number().int(),
  time: instant,
  method: z.string(),
  path: z.string(),
  status: z.number().int().nullable(),
  resource: z.string().nullable(),
  xml: z.string(),
  /** How many reads of its path answered this same document in a row (1 for a write). */
  reads: z.number().int(),
  /** The last of those reads (the time itself when there was one). */
  lastTime: instant,
});
export type IeeeExchangeRecord = z.infer<typeof ieeeExchangeRecord>;

/** One control (DERControl or DefaultDERControl) a site received. */
export const ieeeCommandRecord = z.object({
  id: z.number().int(),
  sn: z.string(),
  mrid: z.string(),
  programMrid: z.string().nullable(),
  primacy: z.number().int().nullable(),
  kind: z.number().int(),
  mode: z.number().int(),
  startTime: instant.nullable(),
  durationS: z.number().int().nullable(),
  eventStatus: z.number().int().nullable(),
  responseStatus: z.number().int().nullable(),
  receivedTime: instant,
});
export type IeeeCommandRecord = z.infer<typeof ieeeCommandRecord>;

/**
 * One response the console posted to the utility for a site's event control (the response trail):
 * the control's mRID and program, the response status (IEEE 2030.5 ResponseStatus: received 1,
 * started 2, completed 3, cancelled 6, superseded 7, refusals 4, 252–254), when it was posted, the
 * utility's HTTP answer (null: none came) and its outcome (GRID_RESPONSE_OUTCOMES).
 */
export const ieeeResponseRecord = z.object({
  id: z.number().int(),
  time: instant,
  mrid: z.string(),
  programMrid: z.string().nullable(),
  status: z.number().int().nullable(),
  httpStatus: z.number().int().nullable(),
  outcome: z.number().int(),
});
export type IeeeResponseRecord = z.infer<typeof ieeeResponseRecord>;

const registeredStates = Object.values(GRID_REGISTRATION_STATES) as number[];
const ieeeFilters = {
  sn: textFilter,
  nmi: textFilter,
  gridCompany: textFilter,
  registeredState: smallIntFilter.refine((v) => v === undefined || registeredStates.includes(v), {
    message: "validation:invalid",
  }),
};
const ieeeListQuery = listQuery(["createTime", "updateTime", "lastCommandTime"], ieeeFilters);

/**
 * A device's serial number as the broker accepts it (SERIAL_PATTERN), so that a value no device
 * can have is refused as such rather than looked for.
 */
const serial = () => text().trim().regex(SERIAL_PATTERN);
/** The device a per-device list is about: its serial number or id (either names it). */
const oneDevice = { sn: z.preprocess(blankToUndefined, serial().optional()), deviceId: idFilter };
const namesDevice = (q: { sn?: string | undefined; deviceId?: number | undefined }) =>
  q.sn !== undefined || q.deviceId !== undefined;
const exchangeFilters = { ...oneDevice, resource: textFilter, from: timeFilter, to: timeFilter };
const exchangeQuery = listQuery(["time"], exchangeFilters).refine(namesDevice, {
  message: "validation:required",
  path: ["sn"],
});
const exchangeExportQuery = z.object({ resource: textFilter, from: timeFilter, to: timeFilter });
const commandFilters = { ...oneDevice, from: timeFilter, to: timeFilter };
const commandQuery = listQuery(["receivedTime", "startTime"], commandFilters);

const responseQuery = listQuery(["time"], oneDevice).refine(namesDevice, { message: "validation:required", path: ["sn"] });

const snParams = z.object({ sn: serial() });
const deviceSn = serial().meta({ label: "fields:deviceSn" });
/** The NMI as typed (ten characters, or eleven with the checksum), or empty to clear it. */
const nmiInput = text()
  .trim()
  .max(16)
  .superRefine((v, ctx) => {
    const refusal = v === "" ? null : nmiRefusal(v);
    if (refusal) ctx.addIssue({ code: "custom", message: refusal });
  })
  .meta({ label: "fields:nmi" });

/** A device's NMI and grid company. */
export const powerGridRecord = z.object({
  sn: z.string(),
  powerGrid: z.string(),
  nmi: z.string(),
  countryCode: z.number().nullable(),
});
export const powerGridSaveBody = z.object({
  sn: deviceSn,
  powerGrid: z.preprocess(blankToUndefined, text().trim().max(64).default("")).meta({ label: "fields:gridCompany" }),
  nmi: nmiInput,
});

const XLSX = z.string().describe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
const perDevice = { entity: "device", refs: [{ in: "query", field: "deviceId", entity: "device" }] } as const;

export const ieeeRoutes = {
  page: defineRoute({
    method: "GET",
    path: "/admin/ieee/page",
    summary:
      "Grid sites with their device: SN, NMI, LFDI, grid company, registration and online state, last command, mode counts",
    tags: ["grid"],
    access: { permission: "grid.view" },
    query: ieeeListQuery,
    data: pageOf(ieeeDeviceRecord),
    scope: { entity: "device", refs: [] },
  }),
  receivePage: defineRoute({
    method: "GET",
    path: "/admin/ieee/receive/page",
    summary: "Documents a device's site received from the utility server (newest first; by time range and resource type)",
    tags: ["grid"],
    access: { permission: "grid.view" },
    query: exchangeQuery,
    data: pageOf(ieeeExchangeRecord),
    scope: perDevice,
  }),
  sendPage: defineRoute({
    method: "GET",
    path: "/admin/ieee/send/page",
    summary: "Documents the console sent to the utility server for a device's site (newest first)",
    tags: ["grid"],
    access: { permission: "grid.view" },
    query: exchangeQuery,
    data: pageOf(ieeeExchangeRecord),
    scope: perDevice,
  }),
  commandPage: defineRoute({
    method: "GET",
    path: "/admin/ieee/command/page",
    summary: "Controls received by one device's site, or by every site in the caller's scope",
    tags: ["grid"],
    access: { permission: "grid.view" },
    query: commandQuery,
    data: pageOf(ieeeCommandRecord),
    scope: perDevice,
  }),
  responsePage: defineRoute({
    method: "GET",
    path: "/admin/ieee/response/page",
    summary:
      "The responses the console posted to the utility for a device's site's controls, newest first, each with its outcome",
    tags: ["grid"],
    access: { permission: "grid.view" },
    query: responseQuery,
    data: pageOf(ieeeResponseRecord),
    scope: perDevice,
  }),
  receiveExport: defineRoute({
    method: "GET",
    path: "/excel/ieee/receive/:sn",
    summary: "A device's received documents as an Excel workbook in the caller's language",
    tags: ["grid"],
    access: { permission: "grid.export" },
    params: snParams,
    query: exchangeExportQuery,
    data: XLSX,
    raw: true,
    scope: { entity: "device", refs: [{ in: "params", field: "sn", entity: "device" }] },
  }),
  sendExport: defineRoute({
    method: "GET",
    path: "/excel/ieee/send/:sn",
    summary: "A device's sent documents as an Excel workbook in the caller's language",
    tags: ["grid"],
    access: { permission: "grid.export" },
    params: snParams,
    query: exchangeExportQuery,
    data: XLSX,
    raw: true,
    scope: { entity: "device", refs: [{ in: "params", field: "sn", entity: "device" }] },
  }),
  commandExport: defineRoute({
    method: "GET",
    path: "/excel/ieee/command",
    summary: "Command records (one device's or all in scope) as an Excel workbook in the caller's language",
    tags: ["grid"],
    access: { permission: "grid.export" },
    query: commandQuery.omit({ current: true, size: true }),
    data: XLSX,
    raw: true,
    scope: perDevice,
  }),
} as const;

export const powerGridRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/admin/powerGrid/getPowerGridList",
    summary: "Australian distribution network operators (from the NMI allocation ranges), as published",
    tags: ["grid"],
    access: { permission: "grid.view" },
    data: z.array(z.object({ key: z.string(), name: z.string(), jurisdiction: z.string() })),
    scope: { entity: "tenant" },
  }),
  get: defineRoute({
    method: "GET",
    path: "/admin/powerGrid/get",
    summary: "A device's grid company and NMI",
    tags: ["grid"],
    access: { permission: "grid.view" },
    query: z.object({ sn: deviceSn }),
    data: powerGridRecord,
    scope: { entity: "device", refs: [{ in: "query", field: "sn", entity: "device" }] },
  }),
  save: defineRoute({
    method: "POST",
    path: "/admin/powerGrid/save",
    summary: "Set an Australian device's grid company and NMI (checked with AEMO's rules; the company must be the NMI's network)",
    tags: ["grid"],
    access: { permission: "grid.edit" },
    body: powerGridSaveBody,
    data: powerGridRecord,
    scope: { entity: "device", refs: [{ in: "body", field: "sn", entity: "device" }] },
  }),
} as const;
