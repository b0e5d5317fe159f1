import { z } from "zod";
import { pageOf, pageQuery } from "../envelope.ts";
import { blankToUndefined } from "../list.ts";
import { defineRoute } from "../route.ts";
import { INT8, text } from "../text.ts";

/** What the app shows of a FAQ problem, in the caller's language. */
export const appFaqProblem = z.object({
  id: z.number().int(),
  classificationId: z.number().int(),
  title: z.string(),
  content: z.string(),
});
export const appFaqClassification = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  summary: z.string(),
  /** How many of its problems the app shows (state 1). */
  problemCount: z.number().int(),
});

export const appRegion = z.object({
  id: z.number().int(),
  parentId: z.number().int().nullable(),
  grade: z.number().int(),
  code: z.string(),
  name: z.string(),
  hasChildren: z.boolean(),
});

export const appLatestVersion = z.object({
  /** The newest distributed version of the app type, or null when none is. */
  latest: z
    .object({
      versionCode: z.string(),
      versionName: z.string(),
      notes: z.string(),
      downloadUrl: z.string().nullable(),
      storeUrl: z.string().nullable(),
      minSupportedVersion: z.string().nullable(),
      forceUpdate: z.boolean(),
    })
    .nullable(),
  /** The caller's version is older than the latest. */
  updateAvailable: z.boolean(),
  /** It must update: the latest is marked forced, or the caller is below its minimum supported version. */
  forced: z.boolean(),
});

const caller = { signedIn: true } as const;
const tenant = { entity: "tenant" } as const;

/**
 * The end users' app reads (any signed-in account): texts in the caller's language
 * (`Accept-Language`; empty texts fall back to English, then Chinese).
 */
export const appReadRoutes = {
  faq: defineRoute({
    method: "GET",
    path: "/app/faq",
    summary:
      "FAQ classifications by sort order, paged, each with the count of its shown problems (read them with /app/faq/problems)",
    tags: ["app"],
    access: caller,
    scope: tenant,
    query: pageQuery,
    data: pageOf(appFaqClassification),
  }),
  faqProblems: defineRoute({
    method: "GET",
    path: "/app/faq/problems",
    summary: "One FAQ classification's shown problems by sort order, paged, in the caller's language",
    tags: ["app"],
    access: caller,
    scope: tenant,
    query: pageQuery.extend({
      classificationId: z.coerce.number().int().min(1).max(INT8.max).meta({ label: "fields:faqClassification" }),
    }),
    data: pageOf(appFaqProblem),
  }),
  faqSearch: defineRoute({
    method: "GET",
    path: "/app/faq/search",
    summary: "FAQ problems whose title or content holds the text (any language), in the caller's language",
    tags: ["app"],
    access: caller,
    scope: tenant,
    query: z.object({ keyword: text().trim().min(1).max(100).meta({ label: "fields:faqKeyword" }) }),
    data: z.array(appFaqProblem),
  }),
  regions: defineRoute({
    method: "GET",
    path: "/app/region/children",
    summary: "The address tree one level at a time: countries (no parent), or the children of a region",
    tags: ["app"],
    access: caller,
    scope: tenant,
    query: z.object({
      parentId: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).optional()).meta({ label: "fields:regionParent" }),
    }),
    data: z.array(appRegion),
  }),
  latestVersion: defineRoute({
    method: "GET",
    path: "/app/version/latest",
    summary: "The newest distributed app version for Android (0) or iOS (1), and whether the caller's version must update",
    tags: ["app"],
    access: caller,
    scope: tenant,
    query: z.object({
      appType: z.coerce.number().int().min(0).max(1).meta({ label: "fields:appType" }),
      versionCode: z
        .preprocess(
          blankToUndefined,
          text()
            .trim()
            .max(32)
            .regex(/^\d{1,5}(\.\d{1,5}){0,3}$/, "firmware:versionFormat")
            .optional(),
        )
        .meta({ label: "fields:versionCode" }),
    }),
    data: appLatestVersion,
  }),
} as const;
