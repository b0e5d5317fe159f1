import { z } from "zod";
import { instant } from "../account-fields.ts";
import { pageOf } from "../envelope.ts";
import { idBody, idFilter, listQuery, smallIntFilter, textFilter } from "../list.ts";
import { localisedInput, localisedText } from "../localised.ts";
import { defineRoute } from "../route.ts";
import { text } from "../text.ts";

const tenantScope = { entity: "tenant" } as const;
const sort = z.number().int().min(0).max(9999).default(0).meta({ label: "fields:sort" });

/** FAQ classification (spec §3): names in the five languages, description, summary, order. */
export const faqClassificationInput = z.object({
  name: localisedInput("name", 64),
  description: z.preprocess((v) => v ?? "", text().trim().max(500)).meta({ label: "fields:description" }),
  summary: text().trim().min(1).max(500).meta({ label: "fields:faqSummary" }),
  sort,
});
export const faqClassificationEdit = z.intersection(faqClassificationInput, z.object({ id: z.number().int().min(1) }));

export const faqClassification = z.object({
  id: z.number().int(),
  name: localisedText,
  description: z.string(),
  summary: z.string(),
  sort: z.number().int(),
  problemCount: z.number().int(),
  updateTime: instant,
});
export type FaqClassification = z.infer<typeof faqClassification>;

/** FAQ problem (spec §3): its classification, title and content in the five languages; shown or hidden. */
export const faqProblemInput = z.object({
  classificationId: z.number().int().min(1).meta({ label: "fields:faqClassification" }),
  title: localisedInput("title", 200),
  content: localisedInput("content", 20000),
  sort,
  state: z
    .union([z.literal(0), z.literal(1)])
    .default(1)
    .meta({ label: "fields:faqState" }),
});
export const faqProblemEdit = z.intersection(faqProblemInput, z.object({ id: z.number().int().min(1) }));

export const faqProblem = z.object({
  id: z.number().int(),
  classificationId: z.number().int(),
  classificationName: localisedText,
  title: localisedText,
  content: localisedText,
  sort: z.number().int(),
  /** 1 shown in the app, 0 hidden. */
  state: z.number().int(),
  updateTime: instant,
});
export type FaqProblem = z.infer<typeof faqProblem>;

/** Classification and problem management (spec §2 "classifications, problems"): the staff side of the app's FAQ. */
export const faqRoutes = {
  classPage: defineRoute({
    method: "GET",
    path: "/admin/faq/classification/page",
    summary: "FAQ classifications by sort order (keyword: a name in any language, or the summary)",
    tags: ["faq"],
    access: { permission: "content.faq.view" },
    scope: tenantScope,
    query: listQuery(["sort", "id", "updateTime"], { keyword: textFilter.meta({ label: "fields:faqKeyword" }) }),
    data: pageOf(faqClassification),
  }),
  classOptions: defineRoute({
    method: "GET",
    path: "/admin/faq/classification/options",
    summary: "Every FAQ classification (id and names), for the problem form's select",
    tags: ["faq"],
    access: { permission: "content.faq.view" },
    scope: tenantScope,
    data: z.array(z.object({ id: z.number().int(), name: localisedText })),
  }),
  classSave: defineRoute({
    method: "POST",
    path: "/admin/faq/classification/save",
    summary: "Add a FAQ classification",
    tags: ["faq"],
    access: { permission: "content.faq.edit" },
    scope: tenantScope,
    body: faqClassificationInput,
    data: faqClassification,
  }),
  classEdit: defineRoute({
    method: "POST",
    path: "/admin/faq/classification/edit",
    summary: "Change a FAQ classification",
    tags: ["faq"],
    access: { permission: "content.faq.edit" },
    scope: tenantScope,
    body: faqClassificationEdit,
    data: faqClassification,
  }),
  classDel: defineRoute({
    method: "POST",
    path: "/admin/faq/classification/del",
    summary: "Delete a FAQ classification (refused while it has problems)",
    tags: ["faq"],
    access: { permission: "content.faq.edit" },
    scope: tenantScope,
    body: idBody,
    data: z.null(),
  }),
  problemPage: defineRoute({
    method: "GET",
    path: "/admin/faq/problem/page",
    summary: "FAQ problems by classification and sort order (keyword: title or content in any language)",
    tags: ["faq"],
    access: { permission: "content.faq.view" },
    scope: tenantScope,
    query: listQuery(["sort", "id", "updateTime"], {
      classificationId: idFilter.meta({ label: "fields:faqClassification" }),
      state: smallIntFilter.meta({ label: "fields:faqState" }),
      keyword: textFilter.meta({ label: "fields:faqKeyword" }),
    }),
    data: pageOf(faqProblem),
  }),
  problemSave: defineRoute({
    method: "POST",
    path: "/admin/faq/problem/save",
    summary: "Add a FAQ problem",
    tags: ["faq"],
    access: { permission: "content.faq.edit" },
    scope: tenantScope,
    body: faqProblemInput,
    data: faqProblem,
  }),
  problemEdit: defineRoute({
    method: "POST",
    path: "/admin/faq/problem/edit",
    summary: "Change a FAQ problem",
    tags: ["faq"],
    access: { permission: "content.faq.edit" },
    scope: tenantScope,
    body: faqProblemEdit,
    data: faqProblem,
  }),
  problemDel: defineRoute({
    method: "POST",
    path: "/admin/faq/problem/del",
    summary: "Delete a FAQ problem",
    tags: ["faq"],
    access: { permission: "content.faq.edit" },
    scope: tenantScope,
    body: idBody,
    data: z.null(),
  }),
} as const;
