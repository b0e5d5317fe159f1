import { ENUMS } from "@ess/domain";
import { z } from "zod";
import { pageOf, pageQuery } from "../envelope.ts";
import { defineRoute } from "../route.ts";
import { INT8, text } from "../text.ts";

const deviceId = z.coerce.number().int().positive();
const deviceScope = { entity: "device", refs: [{ in: "query", field: "deviceId", entity: "device" }] } as const;
const bodyDeviceScope = { entity: "device", refs: [{ in: "body", field: "deviceId", entity: "device" }] } as const;
const settingValue = z.union([z.number(), z.string()]);
/** A setting as a change names it (a register id) and the value sent; its register's range is checked by the settings rules. */
const settingKey = text().min(1).max(64);
const settingInput = z.union([z.number().min(INT8.min).max(INT8.max), text().max(64)]);
const COMMANDS = ENUMS.deviceCommand.values as readonly number[];

export const WRITE_STATES = ["queued", "sent", "acknowledged", "refused", "timed_out"] as const;
export type WriteState = (typeof WRITE_STATES)[number];

export const writeRecord = z.object({
  id: z.number().int(),
  deviceId: z.number().int(),
  bulkId: z.number().int().nullable(),
  kind: z.enum(["setting", "command"]),
  /** Engineering values; `old` is what the device last reported (null when not known). */
  changes: z.array(z.object({ key: z.string(), old: settingValue.nullable(), new: settingValue })),
  command: z.number().int().nullable(),
  state: z.enum(WRITE_STATES),
  /** Device refusal code (needsStandby, readOnly, …) or the console's (offline queue expired). */
  refusal: z.string().nullable(),
  /** The refusal in the caller's language. */
  refusalText: z.string().nullable(),
  attempts: z.number().int(),
  createdBy: z.string(),
  createdAt: z.number(),
  sentAt: z.number().nullable(),
  finishedAt: z.number().nullable(),
});
export type WriteRecord = z.infer<typeof writeRecord>;

export const bulkFilter = z
  .object({
    deviceIds: z.array(z.number().int().positive()).max(10_000).optional(),
    /** Serial numbers starting with this text. */
    snPrefix: text().min(1).max(64).optional(),
    /** 1 single phase, 2 three phase. */
    phaseType: z.union([z.literal(1), z.literal(2)]).optional(),
    onlineStatus: z.union([z.literal(0), z.literal(1), z.literal(2)]).optional(),
  })
  .refine((f) => Object.values(f).some((v) => v !== undefined), { message: "settings:filterEmpty" });

export const deviceSettingsRoutes = {
  write: defineRoute({
    method: "POST",
    path: "/admin/param/set/update",
    summary:
      "Change several settings of one device as one operation (spec §5 rules; refused while running for standby-only settings; offline: refused or queued)",
    tags: ["device settings"],
    access: { permission: "device.param.write" },
    scope: bodyDeviceScope,
    body: z.object({
      deviceId: z.number().int().positive(),
      values: z.record(settingKey, settingInput).refine((v) => Object.keys(v).length > 0 && Object.keys(v).length <= 200, {
        message: "settings:valuesEmpty",
      }),
      /** Offline device: queue the change until it returns instead of refusing. */
      queueIfOffline: z.boolean().default(false),
    }),
    data: writeRecord,
  }),
  command: defineRoute({
    method: "POST",
    path: "/admin/param/set/command",
    summary: "Send a command of spec §4 (power on/off, reboot, clear fault, …) to one device",
    tags: ["device settings"],
    access: { permission: "device.command.send" },
    scope: bodyDeviceScope,
    body: z.object({
      deviceId: z.number().int().positive(),
      command: z
        .number()
        .int()
        .refine((c) => COMMANDS.includes(c), { message: "settings:unknownCommand" }),
      queueIfOffline: z.boolean().default(false),
    }),
    data: writeRecord,
  }),
  records: defineRoute({
    method: "GET",
    path: "/admin/param/set/records",
    summary: "Change records of one device, newest first (settings, commands or both)",
    tags: ["device settings"],
    access: { permission: "device.param.read" },
    scope: deviceScope,
    query: pageQuery.extend({ deviceId, kind: z.enum(["setting", "command"]).optional() }),
    data: pageOf(writeRecord),
  }),
  bulk: defineRoute({
    method: "POST",
    path: "/admin/param/set/bulk",
    summary: "The same settings or command to every device of a filter in the caller's scope, paced; outcomes per device",
    tags: ["device settings"],
    access: { permission: "device.param.bulk" },
    scope: { entity: "device", refs: [{ in: "body", field: "filter.deviceIds", entity: "device", many: true }] },
    body: z
      .object({
        filter: bulkFilter,
        values: z.record(settingKey, settingInput).optional(),
        command: z
          .number()
          .int()
          .refine((c) => COMMANDS.includes(c), { message: "settings:unknownCommand" })
          .optional(),
        queueIfOffline: z.boolean().default(false),
      })
      .refine((b) => (b.values === undefined) !== (b.command === undefined), {
        message: "settings:valuesOrCommand",
        path: ["values"],
      }),
    data: z.object({ bulkId: z.number().int(), total: z.number().int() }),
  }),
  bulkOutcome: defineRoute({
    method: "GET",
    path: "/admin/param/set/bulk/outcome",
    summary: "Per-device outcome of a bulk operation (counts by state and the records)",
    tags: ["device settings"],
    access: { permission: "device.param.bulk" },
    // The operation passes the scope as its own record (its launcher's), each device's record as a device.
    scope: { entity: "device", refs: [{ in: "query", field: "bulkId", entity: "bulk" }] },
    query: pageQuery.extend({ bulkId: z.coerce.number().int().positive() }),
    data: pageOf(writeRecord.extend({ sn: z.string() })).extend({ counts: z.record(z.string(), z.number().int()) }),
  }),
} as const;

const audienceEnum = z.enum(["backOffice", "installer", "consumer"]);
const rights = z.object({ view: z.boolean(), set: z.boolean() });

export const registerVisibility = z.object({
  id: z.string(),
  /** Whether the device takes writes to it at all. */
  settable: z.boolean(),
  /** Effective rights per audience, and whether each is an administrator's override. */
  rights: z.record(audienceEnum, rights.extend({ overridden: z.boolean() })),
});

export const visibilityRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/admin/param/visibility",
    summary: "Display configuration: what each audience may view and set of one live page's registers",
    tags: ["device settings"],
    access: { permission: "device.param.visibility" },
    scope: { entity: "tenant" },
    query: z.object({ page: z.coerce.number().int().positive() }),
    data: z.array(registerVisibility),
  }),
  save: defineRoute({
    method: "POST",
    path: "/admin/param/visibility/save",
    summary: "Change what audiences may view and set (overrides of the catalogue's defaults; reset drops the override)",
    tags: ["device settings"],
    access: { permission: "device.param.visibility" },
    scope: { entity: "tenant" },
    body: z.object({
      items: z
        .array(
          z.object({
            registerId: text().min(1).max(64),
            audience: audienceEnum,
            view: z.boolean(),
            set: z.boolean(),
            /** Back to the catalogue's default. */
            reset: z.boolean().default(false),
          }),
        )
        .min(1)
        .max(1000),
    }),
    data: z.object({ saved: z.number().int() }),
  }),
  mine: defineRoute({
    method: "GET",
    path: "/admin/param/visibility/mine",
    summary: "The caller's own rights on one live page's registers (the settings forms show and enable by these)",
    tags: ["device settings"],
    access: { permission: "device.param.read" },
    scope: { entity: "self" },
    query: z.object({ page: z.coerce.number().int().positive() }),
    data: z.record(z.string(), rights),
  }),
} as const;

/** One item of a self-check and its result (item 0: a single-phase check as a whole). */
export const selfCheckItem = z.object({
  /** TP_0X04_14Filter: 1 59.S1 … 8 81<.S2. */
  item: z.number().int().min(0).max(8),
  outcome: z.enum(["passed", "failed", "running", "pending", "notRun", "notReported"]),
  setThreshold: z.number().nullable(),
  setTimeMs: z.number().nullable(),
  actualThreshold: z.number().nullable(),
  actualTimeMs: z.number().nullable(),
  realTimeThreshold: z.number().nullable(),
});

export const selfCheckRecord = z.object({
  id: z.number().int(),
  startedAt: z.number(),
  startedBy: z.string(),
  /** selfCheckFilter: 0 none, 1 checking, 2 failed, 3 done. */
  state: z.number().int().min(0).max(3),
  finishedAt: z.number().nullable(),
  /** Why a check failed on the console's side: "timeout" when the device never reported its end. */
  cause: z.enum(["timeout"]).nullable(),
  /** What was checked and each result, from the device's readings (empty for checks made before items were kept). */
  items: z.array(selfCheckItem),
  /** Items passed of all, while the check runs. */
  progress: z.object({ done: z.number().int(), total: z.number().int() }).nullable(),
});

export type SelfCheckItem = z.infer<typeof selfCheckItem>;
export type SelfCheckRecord = z.infer<typeof selfCheckRecord>;

export const selfCheckRoutes = {
  start: defineRoute({
    method: "POST",
    path: "/admin/device/selfcheck/start",
    summary: "Start a device's self-check (three-phase: the self-test register, as a change record)",
    tags: ["device settings"],
    access: { permission: "device.command.send" },
    scope: bodyDeviceScope,
    body: z.object({ deviceId: z.number().int().positive() }),
    data: selfCheckRecord,
  }),
  page: defineRoute({
    method: "GET",
    path: "/admin/device/selfcheck/page",
    summary: "Self-checks of a device, newest first, each with the state the device reports",
    tags: ["device settings"],
    access: { permission: "device.param.read" },
    scope: deviceScope,
    query: pageQuery.extend({ deviceId }),
    data: pageOf(selfCheckRecord),
  }),
  report: defineRoute({
    method: "GET",
    path: "/admin/device/selfcheck/report",
    summary: "Self-check report of a device as CSV (UTF-8 with BOM)",
    tags: ["device settings"],
    access: { permission: "device.param.read" },
    scope: deviceScope,
    query: z.object({ deviceId }),
    data: z.string(),
    raw: true,
  }),
} as const;
