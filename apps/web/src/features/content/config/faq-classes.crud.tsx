import { type FaqClassification, faqClassificationEdit, faqClassificationInput } from "@ess/contracts";
import { API } from "../../../api/api.ts";
import { defineCrud, type FieldDef } from "../../../ui/crud/index.ts";
import { inLanguage, localisedFields } from "./localised.ts";

const fields: FieldDef[] = [
  ...localisedFields("name"),
  { name: "summary", label: "fields:faqSummary", kind: "textarea", required: true },
  { name: "description", label: "fields:description", kind: "textarea" },
  { name: "sort", label: "fields:sort", kind: "number" },
];

/** FAQ classifications (spec §2, §3 Classification): names in five languages, summary, order. */
export const faqClassesCrud = defineCrud<FaqClassification>({
  id: "faq-classes",
  ns: ["faq"],
  list: API.faq.classPage,
  filters: [{ name: "keyword", label: "fields:faqKeyword" }],
  columns: [
    { key: "sort", title: "fields:sort", sortable: true },
    { key: "name", title: "faq:classes.name", render: (r) => inLanguage(r.name) },
    { key: "summary", title: "fields:faqSummary", ellipsis: true, width: 240 },
    { key: "description", title: "fields:description", ellipsis: true, width: 200 },
    { key: "problemCount", title: "faq:classes.problemCount" },
    { key: "updateTime", title: "faq:classes.updateTime", kind: "time", sortable: true },
  ],
  create: {
    title: "faq:classes.create",
    route: API.faq.classSave,
    schema: faqClassificationInput,
    permission: "content.faq.edit",
    initial: () => ({ sort: 0 }),
    fields,
  },
  edit: {
    title: "faq:classes.edit",
    route: API.faq.classEdit,
    schema: faqClassificationEdit,
    permission: "content.faq.edit",
    fields,
  },
  remove: { route: API.faq.classDel, permission: "content.faq.edit", confirm: "faq:classes.confirmDelete" },
});
