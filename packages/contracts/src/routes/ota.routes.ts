import { BCU_IDS, BMS_INDEX_MAX, CAMPAIGN_BATCH_MAX, CAMPAIGN_STATES, FAILURE_CAUSES, OTA_SCHEDULE_MAX } from "@ess/domain";
import { z } from "zod";
import { instant } from "../account-fields.ts";
import { pageOf } from "../envelope.ts";
import { idBody, idFilter, idQuery, listQuery, smallIntFilter, textFilter } from "../list.ts";
import { defineRoute } from "../route.ts";
import { instantInput, text } from "../text.ts";
import { evenWithOtherIssues } from "../validation.ts";

const deviceId = z.coerce.number().int().positive();
const bmsId = z.number().int().min(0).max(BMS_INDEX_MAX).nullable().default(null);
const bcuId = z
  .number()
  .int()
  .refine((v) => (BCU_IDS as readonly number[]).includes(v), "validation:invalid")
  .nullable()
  .default(null);

/** One device's upgrade (upgrade record list: version number, update time, upgrade status, and how far). */
export const upgradeRecord = z.object({
  id: z.number().int(),
  deviceId: z.number().int(),
  sn: z.string(),
  deviceName: z.string(),
  campaignId: z.number().int().nullable(),
  versionId: z.number().int(),
  firmwareType: z.number().int(),
  versionCode: z.string(),
  fromVersion: z.string().nullable(),
  bmsId: z.number().int().nullable(),
  bcuId: z.number().int().nullable(),
  /** 0 pending confirmation, 1 confirmed, 2 upgrading, 3 failed, 4 succeeded. */
  status: z.number().int().min(0).max(4),
  stage: z.string().nullable(),
  percent: z.number(),
  bytesTotal: z.number().int(),
  bytesSent: z.number().int(),
  bytesReceived: z.number().int(),
  crcSent: z.string().nullable(),
  crcReceived: z.string().nullable(),
  cause: z.enum(FAILURE_CAUSES).nullable(),
  resultCode: z.number().int().nullable(),
  attempts: z.number().int(),
  createTime: instant,
  updateTime: instant,
  finishTime: instant.nullable(),
});
export type UpgradeRecord = z.infer<typeof upgradeRecord>;

export const campaignCounts = z.object({
  total: z.number().int(),
  pending: z.number().int(),
  confirmed: z.number().int(),
  upgrading: z.number().int(),
  failed: z.number().int(),
  succeeded: z.number().int(),
});

export const campaign = z.object({
  id: z.number().int(),
  name: z.string(),
  versionId: z.number().int(),
  firmwareType: z.number().int(),
  versionCode: z.string(),
  times: z.array(instant),
  batchSize: z.number().int(),
  batchIntervalS: z.number().int(),
  bmsId: z.number().int().nullable(),
  bcuId: z.number().int().nullable(),
  state: z.enum(CAMPAIGN_STATES),
  /** Devices of the filtered set left out as incompatible (model or current version). */
  excluded: z.number().int(),
  counts: campaignCounts,
  createTime: instant,
  finishTime: instant.nullable(),
});
export type Campaign = z.infer<typeof campaign>;

/** The filtered set of devices a campaign goes to (within the caller's scope). */
export const deviceFilter = z.object({
  sn: textFilter,
  /** 1 single phase, 2 three phase. */
  phaseType: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.coerce.number().int().min(1).max(2).optional()),
  /** Seller or installer organisation. */
  orgId: idFilter,
  onlineStatus: smallIntFilter,
});

export const campaignPreviewDevice = z.object({
  id: z.number().int(),
  sn: z.string(),
  name: z.string(),
  phaseType: z.number().int().nullable(),
  onlineStatus: z.number().int(),
  currentVersion: z.string().nullable(),
  compatible: z.boolean(),
  /** Why not: i18n key of namespace `ota`. */
  reason: z.string().nullable(),
});

// Spec §5: "Set at least one time", "Times cannot duplicate"; at most three (§9).
const scheduleTimes = z
  .preprocess((v) => v ?? [], z.array(instantInput()))
  .refine((times) => times.length > 0, "ota:timesRequired")
  .refine((times) => times.length <= OTA_SCHEDULE_MAX, { message: "validation:tooManyItems", params: { max: OTA_SCHEDULE_MAX } })
  // Refinements run even when a time was refused (zod goes on after a non-fatal issue): only dates compare.
  .refine(
    (times) => new Set(times.map((t) => (t instanceof Date ? t.getTime() : String(t)))).size === times.length,
    "ota:timesDuplicate",
  );

export const campaignCreate = z
  .object({
    name: text().trim().min(1).max(100),
    versionId: z.number().int().min(1),
    times: scheduleTimes,
    batchSize: z.number().int().min(1).max(CAMPAIGN_BATCH_MAX).default(50),
    batchIntervalS: z.number().int().min(0).max(86_400).default(60),
    filter: deviceFilter.default({}),
    /** A hand-picked subset of the filtered set (absent: all of it). */
    deviceIds: z.array(z.number().int().min(1)).min(1).max(10_000).optional(),
    bmsId,
    bcuId,
  })
  .superRefine(() => {}, evenWithOtherIssues);

const campaignScope = { entity: "campaign", refs: [{ in: "body", field: "id", entity: "campaign" }] } as const;
const CAMPAIGN_SORT = ["id", "createTime", "name"] as const;
const RECORD_SORT = ["id", "createTime", "status"] as const;

/** OTA to one device, campaigns and upgrade records (reference: /admin/app/version/ota/send, /admin/lsyupgrade/*, /admin/lsydeviceupgrade/page). */
export const otaRoutes = {
  send: defineRoute({
    method: "POST",
    path: "/admin/app/version/ota/send",
    summary: "Upgrade one device to a firmware version now (BMS index and BCU id where the type needs them)",
    tags: ["ota"],
    access: { permission: "ota.send" },
    scope: { entity: "device", refs: [{ in: "body", field: "deviceId", entity: "device" }] },
    body: z.object({ deviceId: z.number().int().min(1), id: z.number().int().min(1), bmsId, bcuId }),
    data: upgradeRecord,
  }),
  records: defineRoute({
    method: "GET",
    path: "/admin/lsydeviceupgrade/page",
    summary: "Upgrade records of one device, newest first",
    tags: ["ota"],
    access: { permission: "ota.view" },
    scope: { entity: "device", refs: [{ in: "query", field: "deviceId", entity: "device" }] },
    query: listQuery(RECORD_SORT, { deviceId }),
    data: pageOf(upgradeRecord),
  }),
  preview: defineRoute({
    method: "GET",
    path: "/admin/lsyupgrade/preview",
    summary: "The devices in scope a campaign of this version would reach, each with its compatibility",
    tags: ["ota"],
    access: { permission: "ota.send" },
    scope: { entity: "device", refs: [{ in: "query", field: "orgId", entity: "organisation" }] },
    query: deviceFilter.extend({ versionId: z.coerce.number().int().min(1).optional() }),
    data: z.array(campaignPreviewDevice),
  }),
  issue: defineRoute({
    method: "POST",
    path: "/admin/lsyupgrade/issued",
    summary: "Launch a campaign: a version to the compatible devices of a filtered set, in paced batches at up to three times",
    tags: ["ota"],
    access: { permission: "ota.send" },
    scope: {
      entity: "device",
      refs: [
        { in: "body", field: "deviceIds", entity: "device", many: true },
        { in: "body", field: "filter.orgId", entity: "organisation" },
      ],
    },
    body: campaignCreate,
    data: campaign,
  }),
  page: defineRoute({
    method: "GET",
    path: "/admin/lsyupgrade/page",
    summary: "Campaigns the caller may see, with their progress",
    tags: ["ota"],
    access: { permission: "ota.view" },
    scope: { entity: "campaign", refs: [] },
    query: listQuery(CAMPAIGN_SORT, { name: textFilter }),
    data: pageOf(campaign),
  }),
  info: defineRoute({
    method: "GET",
    path: "/admin/lsyupgrade/info",
    summary: "One campaign with its progress",
    tags: ["ota"],
    access: { permission: "ota.view" },
    scope: { entity: "campaign", refs: [{ in: "query", field: "id", entity: "campaign" }] },
    query: idQuery,
    data: campaign,
  }),
  devices: defineRoute({
    method: "GET",
    path: "/admin/lsyupgrade/devices",
    summary: "The devices of one campaign with their upgrade status",
    tags: ["ota"],
    access: { permission: "ota.view" },
    scope: { entity: "campaign", refs: [{ in: "query", field: "id", entity: "campaign" }] },
    query: listQuery(RECORD_SORT, { id: z.coerce.number().int().min(1), status: smallIntFilter, sn: textFilter }),
    data: pageOf(upgradeRecord),
  }),
  pause: defineRoute({
    method: "POST",
    path: "/admin/lsyupgrade/pause",
    summary: "Pause a campaign: no further batches (upgrades under way finish)",
    tags: ["ota"],
    access: { permission: "ota.send" },
    scope: campaignScope,
    body: idBody,
    data: campaign,
  }),
  resume: defineRoute({
    method: "POST",
    path: "/admin/lsyupgrade/resume",
    summary: "Resume a paused campaign",
    tags: ["ota"],
    access: { permission: "ota.send" },
    scope: campaignScope,
    body: idBody,
    data: campaign,
  }),
  cancel: defineRoute({
    method: "POST",
    path: "/admin/lsyupgrade/cancel",
    summary: "Cancel a campaign: devices not yet ordered fail as cancelled (upgrades under way finish)",
    tags: ["ota"],
    access: { permission: "ota.send" },
    scope: campaignScope,
    body: idBody,
    data: campaign,
  }),
};
