import { isFirmwareType, LOCALES, VERSION_CODE_PATTERN, VERSION_TYPES } from "@ess/domain";
import { z } from "zod";
import { instant } from "../account-fields.ts";
import { pageOf } from "../envelope.ts";
import { idBody, idQuery, listQuery, smallIntFilter, textFilter } from "../list.ts";
import { defineRoute } from "../route.ts";
import { plain, text } from "../text.ts";
import { evenWithOtherIssues } from "../validation.ts";

const tenantScope = { entity: "tenant" } as const;
const versionType = z
  .number()
  .int()
  .refine((t) => (VERSION_TYPES as readonly number[]).includes(t), "validation:invalid");
// Spec §5: an absent or empty version number reads "Please add the upgrade version number".
const versionCode = z.preprocess(
  (v) => v ?? "",
  text()
    .trim()
    .max(32)
    .refine((v) => v !== "", "firmware:versionRequired")
    .refine((v) => v === "" || VERSION_CODE_PATTERN.test(v), "firmware:versionFormat"),
);

/** An uploaded package as stored: what a version record points at. */
export const storedPackage = z.object({
  fileId: z.number().int(),
  name: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  crc32: z.string(),
});
export type StoredPackage = z.infer<typeof storedPackage>;

/** Version record (spec §3): app or firmware version with notes per language and its package or link. */
export const firmwareVersion = z.object({
  id: z.number().int(),
  type: z.number().int(),
  versionCode: z.string(),
  versionName: z.string(),
  notes: z.record(z.string(), z.string()),
  downloadUrl: z.string().nullable(),
  package: storedPackage.nullable(),
  /** 1 single phase, 2 three phase, null any. */
  phaseType: z.number().int().nullable(),
  upgradeableFrom: z.array(z.string()),
  /** 0 to be issued, 1 distributed. */
  state: z.number().int(),
  /** Apps: the store page (App Store, Google Play), beside or instead of the download link. */
  storeUrl: z.string().nullable(),
  /** Apps: every older version must update to this one. */
  forceUpdate: z.boolean(),
  /** Apps: versions below this one must update (null: none must). */
  minSupportedVersion: z.string().nullable(),
  createTime: instant,
  updateTime: instant,
});
export type FirmwareVersion = z.infer<typeof firmwareVersion>;

const notes = z
  .record(text().max(16), text().max(4000))
  .default({})
  .refine((n) => Object.keys(n).every((k) => (LOCALES as readonly string[]).includes(k)), "validation:invalid");

const versionFields = {
  versionName: text().trim().min(1).max(64),
  notes,
  downloadUrl: z.preprocess((v) => (v === "" ? null : v), plain(z.url()).max(500).nullable().default(null)),
  fileId: z.number().int().min(1).nullable().default(null),
  phaseType: z.preprocess(
    (v) => (v === "" ? null : v),
    z
      .union([z.literal(1), z.literal(2)])
      .nullable()
      .default(null),
  ),
  upgradeableFrom: z.array(versionCode).max(50).default([]),
  state: z.union([z.literal(0), z.literal(1)]).default(0),
  storeUrl: z
    .preprocess((v) => (v === "" ? null : v), plain(z.url()).max(500).nullable().default(null))
    .meta({ label: "fields:storeUrl" }),
  forceUpdate: z.boolean().default(false).meta({ label: "fields:forceUpdate" }),
  minSupportedVersion: z
    .preprocess(
      (v) => (v === "" ? null : v),
      text().trim().max(32).regex(VERSION_CODE_PATTERN, "firmware:versionFormat").nullable().default(null),
    )
    .meta({ label: "fields:minSupportedVersion" }),
};

/** Apps carry a download link; firmware an uploaded package ("Upgrade package cannot be empty"). */
const needsPackageOrLink = (
  v: { type: number; fileId: number | null; downloadUrl: string | null; storeUrl: string | null },
  ctx: z.RefinementCtx,
) => {
  if (isFirmwareType(v.type) && v.fileId === null)
    ctx.addIssue({ code: "custom", path: ["fileId"], message: "firmware:packageRequired" });
  if (!isFirmwareType(v.type) && v.downloadUrl === null && v.fileId === null && v.storeUrl === null)
    ctx.addIssue({ code: "custom", path: ["downloadUrl"], message: "firmware:linkRequired" });
};

export const firmwareVersionCreate = z
  .object({ type: versionType, versionCode, ...versionFields })
  .superRefine(needsPackageOrLink, evenWithOtherIssues);
export const firmwareVersionEdit = z
  .object({ id: z.number().int().min(1), type: versionType, versionCode, ...versionFields })
  .superRefine(needsPackageOrLink, evenWithOtherIssues);

const VERSION_SORT = ["id", "versionCode", "type", "createTime"] as const;

/** Upgrade-info management (reference: /admin/app/version/*, /admin/file/info/upload/file). */
export const firmwareRoutes = {
  page: defineRoute({
    method: "GET",
    path: "/admin/app/version/page",
    summary: "App and firmware versions, paged (filter by type, version number, state)",
    tags: ["firmware"],
    access: { permission: "firmware.view" },
    scope: tenantScope,
    query: listQuery(VERSION_SORT, { appType: smallIntFilter, versionCode: textFilter, state: smallIntFilter }),
    data: pageOf(firmwareVersion),
  }),
  info: defineRoute({
    method: "GET",
    path: "/admin/app/version/info",
    summary: "One version record",
    tags: ["firmware"],
    access: { permission: "firmware.view" },
    scope: tenantScope,
    query: idQuery,
    data: firmwareVersion,
  }),
  save: defineRoute({
    method: "POST",
    path: "/admin/app/version/save",
    summary: "Add a version record (its package uploaded first)",
    tags: ["firmware"],
    access: { permission: "firmware.edit" },
    scope: tenantScope,
    body: firmwareVersionCreate,
    data: firmwareVersion,
  }),
  edit: defineRoute({
    method: "POST",
    path: "/admin/app/version/edit",
    summary: "Change a version record",
    tags: ["firmware"],
    access: { permission: "firmware.edit" },
    scope: tenantScope,
    body: firmwareVersionEdit,
    data: firmwareVersion,
  }),
  del: defineRoute({
    method: "POST",
    path: "/admin/app/version/del",
    summary: "Delete a version record (refused while an upgrade to it is open)",
    tags: ["firmware"],
    access: { permission: "firmware.edit" },
    scope: tenantScope,
    body: idBody,
    data: z.null(),
  }),
  upload: defineRoute({
    method: "POST",
    path: "/admin/file/info/upload/file",
    summary: "Upload a package (the request body is the file; fileName in the query); size- and type-checked, checksummed",
    tags: ["firmware"],
    access: { permission: "firmware.edit" },
    scope: tenantScope,
    query: z.object({ fileName: text().trim().min(1, "firmware:packageRequired").max(200) }),
    data: storedPackage,
  }),
  download: defineRoute({
    method: "GET",
    path: "/ota/package/:fileId",
    summary: "A package for a device upgrading to it (HTTP Basic: serial number and device secret)",
    tags: ["firmware"],
    access: { public: true },
    params: z.object({ fileId: z.coerce.number().int().min(1) }),
    data: z.unknown(),
    raw: true,
  }),
};
