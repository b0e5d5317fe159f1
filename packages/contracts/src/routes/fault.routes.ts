import { FAULT_CATEGORIES, FAULT_LEVELS, FAULT_LIMITS, LOCALES } from "@ess/domain";
import { z } from "zod";
import { instant } from "../account-fields.ts";
import { pageOf } from "../envelope.ts";
import { idBody, idFilter, intFilter, listQuery, smallIntFilter, textFilter, timeFilter } from "../list.ts";
import { defineRoute } from "../route.ts";
import { instantInput, text } from "../text.ts";

const blank = (v: unknown) => (v === "" || v === null ? undefined : v);
const level = z.union(FAULT_LEVELS.map((l) => z.literal(l)) as [z.ZodLiteral<1>, z.ZodLiteral<2>, z.ZodLiteral<3>]);
const systemType = z.union([z.literal(1), z.literal(2)]);
const code = z.number().int().min(FAULT_LIMITS.code.min).max(FAULT_LIMITS.code.max);
const boolFilter = z.preprocess(
  (v) => (v === "true" || v === "1" ? true : v === "false" || v === "0" ? false : blank(v)),
  z.boolean().optional(),
);

/** One language's texts of a fault code: information, possible causes, solution. */
export const faultText = z.object({
  info: text().trim().min(1).max(FAULT_LIMITS.info),
  causes: text().trim().min(1).max(FAULT_LIMITS.causes),
  remedy: text().trim().min(1).max(FAULT_LIMITS.remedy),
});
/** The texts in every console language (all five required). */
export const faultTexts = z.object(
  Object.fromEntries(LOCALES.map((l) => [l, faultText])) as Record<(typeof LOCALES)[number], typeof faultText>,
);

export const faultInput = z.object({
  code: code.meta({ label: "fields:faultCode" }),
  level,
  systemType,
  category: z.preprocess(blank, z.enum(FAULT_CATEGORIES).nullable().default(null)),
  texts: faultTexts,
  display: z.boolean().default(true),
});
export type FaultInput = z.infer<typeof faultInput>;

export const faultRecord = z.object({
  id: z.number().int(),
  code: z.number().int(),
  level: z.number().int(),
  systemType: z.number().int(),
  category: z.string().nullable(),
  texts: z.record(z.string(), z.object({ info: z.string(), causes: z.string(), remedy: z.string() })),
  display: z.boolean(),
  createTime: instant,
  updateTime: instant,
});
export type FaultRecord = z.infer<typeof faultRecord>;

export const faultListQuery = listQuery(["code", "level", "createTime"], {
  code: intFilter.meta({ label: "fields:faultCode" }),
  level: smallIntFilter,
  systemType: smallIntFilter,
  category: textFilter,
  display: boolFilter,
  /** Matches the information text in any language. */
  info: textFilter,
});

export const alarmControlInput = z.object({
  code: code.meta({ label: "fields:alarmCode" }),
  name: text().trim().min(1).max(FAULT_LIMITS.controlName),
  description: text().trim().min(1).max(FAULT_LIMITS.controlDescription),
  display: z.boolean().default(true),
  sort: z.number().int().min(FAULT_LIMITS.sort.min).max(FAULT_LIMITS.sort.max).default(0),
});
export const alarmControlRecord = z.object({
  id: z.number().int(),
  code: z.number().int(),
  name: z.string(),
  description: z.string(),
  display: z.boolean(),
  sort: z.number().int(),
  createTime: instant,
});
export type AlarmControlRecord = z.infer<typeof alarmControlRecord>;

export const ALARM_STATUSES = ["occur", "disappear"] as const;

/** One device alarm, with its code's texts in the caller's language. */
export const alarmRecord = z.object({
  id: z.number().int(),
  deviceId: z.number().int(),
  sn: z.string(),
  deviceName: z.string(),
  code: z.number().int(),
  level: z.number().int(),
  systemType: z.number().int(),
  status: z.enum(ALARM_STATUSES),
  occurredAt: instant,
  clearedAt: instant.nullable(),
  /** Times the condition came back before the alarm closed (a flapping signal). */
  flapCount: z.number().int(),
  info: z.string().nullable(),
  causes: z.string().nullable(),
  remedy: z.string().nullable(),
});
export type AlarmRecord = z.infer<typeof alarmRecord>;

const alarmFilters = {
  deviceId: idFilter,
  sn: textFilter,
  faultCode: intFilter,
  level: smallIntFilter,
  systemType: smallIntFilter,
  status: z.preprocess(blank, z.enum(ALARM_STATUSES).optional()),
  /** Only alarms still open (the current alarms screen). */
  open: boolFilter,
  from: timeFilter,
  to: timeFilter,
};
export const alarmListQuery = listQuery(["occurredAt", "clearedAt", "code", "level"], alarmFilters);

/** Delete or hide one device's alarms of one code that occurred in a time range (spec §5). */
export const alarmRemoveBody = z.object({
  deviceId: z.number().int().min(1),
  faultCode: code,
  beginTime: instantInput(),
  endTime: instantInput(),
  action: z.enum(["hide", "delete"]),
});

export const alarmPreference = z.object({
  levels: z.array(level).max(3),
  onlineEvents: z.boolean(),
});

/** A device's communication status labels (enumerations DSPFilter, BMSFilter, meterNormalFilter). */
export const deviceStatusLabels = z.object({
  deviceId: z.number().int(),
  /** 0 normal, 3 error (an error-level alarm is open). */
  deviceStatus: z.number().int(),
  openAlarms: z.number().int(),
  /** 1 DSP communication normal, 0 DSP communication error. */
  dsp: z.number().int().nullable(),
  /** 1 BMS communication normal, 0 no BMS. */
  bms: z.number().int().nullable(),
  /** 1 meter normal, 0 abnormal. */
  meter: z.number().int().nullable(),
});

/** What a live alarm reminder carries besides its title and content, so a console can show it in its own language. */
export const ALARM_NOTICE_KINDS = ["alarm", "storm", "online", "offline", "onlineStorm", "offlineStorm"] as const;
export const alarmNotice = z.object({
  /** One alarm or one device on/off line; or a storm: many devices raising one code, or coming on/off line, in a window. */
  kind: z.enum(ALARM_NOTICE_KINDS),
  deviceId: z.number().int().nullable(),
  sn: z.string().nullable(),
  code: z.number().int().nullable(),
  level: z.number().int().nullable(),
  /** For a storm: how many devices (in the recipient's scope) it reached so far in the window, or in all when `final`. */
  devices: z.number().int().nullable(),
  /** The code's information text per language ("Unknown fault" for a code the catalogue lacks). */
  info: z.record(z.string(), z.string()).nullable(),
  /** For a storm: the window's length, seconds. */
  windowS: z.number().int().optional(),
  /** For a storm: the follow-up at the window's end, counting every device of the window. */
  final: z.boolean().optional(),
});
export type AlarmNotice = z.infer<typeof alarmNotice>;

const tenantScope = { entity: "tenant" } as const;
const deviceQueryScope = { entity: "device", refs: [{ in: "query", field: "deviceId", entity: "device" }] } as const;

export const faultRoutes = {
  page: defineRoute({
    method: "GET",
    path: "/admin/lsyfault/page",
    summary: "The fault catalogue",
    tags: ["faults"],
    access: { permission: "fault.view" },
    query: faultListQuery,
    data: pageOf(faultRecord),
    scope: tenantScope,
  }),
  save: defineRoute({
    method: "POST",
    path: "/admin/lsyfault/save",
    summary: "Add a fault code",
    tags: ["faults"],
    access: { permission: "fault.edit" },
    body: faultInput,
    data: faultRecord,
    scope: tenantScope,
  }),
  edit: defineRoute({
    method: "POST",
    path: "/admin/lsyfault/edit",
    summary: "Change a fault code",
    tags: ["faults"],
    access: { permission: "fault.edit" },
    body: faultInput.extend({ id: z.number().int().min(1) }),
    data: faultRecord,
    scope: tenantScope,
  }),
  del: defineRoute({
    method: "POST",
    path: "/admin/lsyfault/del",
    summary: "Delete a fault code",
    tags: ["faults"],
    access: { permission: "fault.edit" },
    body: idBody,
    data: z.null(),
    scope: tenantScope,
  }),
  export: defineRoute({
    method: "GET",
    path: "/admin/lsyfault/export",
    summary: "The whole fault catalogue as a JSON file (the import format)",
    tags: ["faults"],
    access: { permission: "fault.view" },
    data: z.string().describe("application/json"),
    raw: true,
    scope: tenantScope,
  }),
  import: defineRoute({
    method: "POST",
    path: "/admin/lsyfault/import",
    summary: "Add or replace fault codes (by code and system type), all or nothing",
    tags: ["faults"],
    access: { permission: "fault.edit" },
    body: z.object({ faults: z.array(faultInput).min(1).max(2000) }),
    data: z.object({ created: z.number().int(), updated: z.number().int() }),
    scope: tenantScope,
  }),
} as const;

export const alarmControlRoutes = {
  page: defineRoute({
    method: "GET",
    path: "/admin/lsyalarmcontrol/page",
    summary: "Alarm control: which codes are shown and pushed",
    tags: ["faults"],
    access: { permission: "fault.view" },
    query: listQuery(["sort", "code", "createTime"], {
      code: intFilter.meta({ label: "fields:alarmCode" }),
      name: textFilter,
      display: boolFilter,
    }),
    data: pageOf(alarmControlRecord),
    scope: tenantScope,
  }),
  save: defineRoute({
    method: "POST",
    path: "/admin/lsyalarmcontrol/save",
    summary: "Add an alarm control entry",
    tags: ["faults"],
    access: { permission: "fault.edit" },
    body: alarmControlInput,
    data: alarmControlRecord,
    scope: tenantScope,
  }),
  edit: defineRoute({
    method: "POST",
    path: "/admin/lsyalarmcontrol/edit",
    summary: "Change an alarm control entry",
    tags: ["faults"],
    access: { permission: "fault.edit" },
    body: alarmControlInput.extend({ id: z.number().int().min(1) }),
    data: alarmControlRecord,
    scope: tenantScope,
  }),
  del: defineRoute({
    method: "POST",
    path: "/admin/lsyalarmcontrol/del",
    summary: "Delete an alarm control entry",
    tags: ["faults"],
    access: { permission: "fault.edit" },
    body: idBody,
    data: z.null(),
    scope: tenantScope,
  }),
} as const;

export const alarmRoutes = {
  page: defineRoute({
    method: "GET",
    path: "/admin/lsydevicealarm/page",
    summary: "Device alarms, current or history, newest first",
    tags: ["alarms"],
    access: { permission: "alarm.view" },
    query: alarmListQuery,
    data: pageOf(alarmRecord),
    scope: deviceQueryScope,
  }),
  export: defineRoute({
    method: "GET",
    path: "/admin/lsydevicealarm/export",
    summary: "The same alarms as CSV (at most 10,000 rows)",
    tags: ["alarms"],
    access: { permission: "alarm.view" },
    query: alarmListQuery.omit({ current: true, size: true }),
    data: z.string().describe("text/csv"),
    raw: true,
    scope: deviceQueryScope,
  }),
  remove: defineRoute({
    method: "POST",
    path: "/admin/lsydevicealarm/edit",
    summary: "Hide or delete a device's alarms of one code in a time range",
    tags: ["alarms"],
    access: { permission: "alarm.hide" },
    body: alarmRemoveBody,
    data: z.object({ affected: z.number().int() }),
    scope: { entity: "device", refs: [{ in: "body", field: "deviceId", entity: "device" }] },
  }),
  statusLabels: defineRoute({
    method: "GET",
    path: "/admin/lsydevicealarm/status",
    summary: "A device's status labels: error status, DSP, BMS and meter communication",
    tags: ["alarms"],
    access: { permission: "alarm.view" },
    query: z.object({ deviceId: z.coerce.number().int().min(1) }),
    data: deviceStatusLabels,
    scope: deviceQueryScope,
  }),
  preference: defineRoute({
    method: "GET",
    path: "/admin/alarm/preference",
    summary: "Which alarm levels and events reach me as live reminders",
    tags: ["alarms"],
    access: { signedIn: true },
    data: alarmPreference,
    scope: { entity: "self" },
  }),
  savePreference: defineRoute({
    method: "POST",
    path: "/admin/alarm/preference",
    summary: "Choose which alarm levels and events reach me as live reminders",
    tags: ["alarms"],
    access: { signedIn: true },
    body: alarmPreference,
    data: alarmPreference,
    scope: { entity: "self" },
  }),
} as const;
