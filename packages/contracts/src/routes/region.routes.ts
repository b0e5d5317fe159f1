import { z } from "zod";
import { instant } from "../account-fields.ts";
import { pageOf } from "../envelope.ts";
import { blankToUndefined, idBody, listQuery, smallIntFilter, textFilter } from "../list.ts";
import { localisedInput, localisedText } from "../localised.ts";
import { defineRoute } from "../route.ts";
import { text } from "../text.ts";

const tenantScope = { entity: "tenant" } as const;

/** Address (spec §3, §4 address grade): a country (0), a region of it (1) or a residence (2). */
export const regionInput = z.object({
  parentId: z.preprocess(
    (v) => (v === "" || v === undefined ? null : v),
    z.number().int().min(1).nullable().meta({ label: "fields:regionParent" }),
  ),
  grade: z.union([z.literal(0), z.literal(1), z.literal(2)]).meta({ label: "fields:regionGrade" }),
  code: text()
    .trim()
    .min(1)
    .max(32)
    .regex(/^[A-Za-z0-9_-]+$/, "regions:codeFormat")
    .meta({ label: "fields:regionCode" }),
  name: localisedInput("name", 100),
  sort: z.number().int().min(0).max(9999).default(0).meta({ label: "fields:sort" }),
});
export const regionEdit = z.intersection(regionInput, z.object({ id: z.number().int().min(1) }));

export const region = z.object({
  id: z.number().int(),
  parentId: z.number().int().nullable(),
  parentName: localisedText.nullable(),
  grade: z.number().int(),
  code: z.string(),
  name: localisedText,
  sort: z.number().int(),
  childCount: z.number().int(),
  updateTime: instant,
});
export type Region = z.infer<typeof region>;

/** Address management (spec §2): the country → region → residence tree of end-user and installer addresses. */
export const regionRoutes = {
  page: defineRoute({
    method: "GET",
    path: "/admin/region/page",
    summary: "Regions, paged (filter by parent, grade, a code or name in any language)",
    tags: ["regions"],
    access: { permission: "content.region.view" },
    scope: tenantScope,
    query: listQuery(["sort", "id", "code"], {
      parentId: z.preprocess(blankToUndefined, z.coerce.number().int().min(1).optional()).meta({ label: "fields:regionParent" }),
      grade: smallIntFilter.meta({ label: "fields:regionGrade" }),
      keyword: textFilter.meta({ label: "fields:regionKeyword" }),
    }),
    data: pageOf(region),
  }),
  parents: defineRoute({
    method: "GET",
    path: "/admin/region/parents",
    summary: "Countries and regions (grades 0 and 1): the choices of a region's parent",
    tags: ["regions"],
    access: { permission: "content.region.view" },
    scope: tenantScope,
    data: z.array(z.object({ id: z.number().int(), grade: z.number().int(), code: z.string(), name: localisedText })),
  }),
  save: defineRoute({
    method: "POST",
    path: "/admin/region/save",
    summary: "Add a region (one grade below its parent; a country has none)",
    tags: ["regions"],
    access: { permission: "content.region.edit" },
    scope: tenantScope,
    body: regionInput,
    data: region,
  }),
  edit: defineRoute({
    method: "POST",
    path: "/admin/region/edit",
    summary: "Change a region",
    tags: ["regions"],
    access: { permission: "content.region.edit" },
    scope: tenantScope,
    body: regionEdit,
    data: region,
  }),
  del: defineRoute({
    method: "POST",
    path: "/admin/region/del",
    summary: "Delete a region (refused while it has children)",
    tags: ["regions"],
    access: { permission: "content.region.edit" },
    scope: tenantScope,
    body: idBody,
    data: z.null(),
  }),
} as const;
