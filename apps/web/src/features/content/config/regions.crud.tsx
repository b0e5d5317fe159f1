import { type Region, regionEdit, regionInput } from "@ess/contracts";
import { REGION_GRADES } from "@ess/domain";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { defineCrud, type FieldDef, type OptionSource } from "../../../ui/crud/index.ts";
import { inLanguage, localisedFields } from "./localised.ts";

const gradeOptions = { values: REGION_GRADES, labelKey: "regions:grades" };
const parentOptions: OptionSource = {
  key: "region-parents",
  load: async () =>
    (await call(API.region.parents, {})).map((r) => ({ value: r.id, label: `${inLanguage(r.name)} · ${r.code}` })),
};

const fields: FieldDef[] = [
  { name: "grade", label: "fields:regionGrade", kind: "select", options: gradeOptions, required: true },
  {
    name: "parentId",
    label: "fields:regionParent",
    kind: "select",
    options: parentOptions,
    required: true,
    visible: (v) => v.grade !== undefined && v.grade !== 0,
  },
  { name: "code", label: "fields:regionCode", required: true },
  ...localisedFields("name"),
  { name: "sort", label: "fields:sort", kind: "number" },
];

/** Address management (spec §2, §4 address grade): countries, their regions and residences. */
export const regionsCrud = defineCrud<Region>({
  id: "regions",
  ns: ["regions"],
  list: API.region.page,
  filters: [
    { name: "parentId", label: "fields:regionParent", kind: "select", options: parentOptions },
    { name: "grade", label: "fields:regionGrade", kind: "select", options: gradeOptions },
    { name: "keyword", label: "fields:regionKeyword" },
  ],
  columns: [
    { key: "grade", title: "fields:regionGrade", options: gradeOptions },
    { key: "code", title: "fields:regionCode", sortable: true },
    { key: "name", title: "regions:name", render: (r) => inLanguage(r.name) },
    { key: "parentId", title: "fields:regionParent", render: (r) => (r.parentName ? inLanguage(r.parentName) : "") },
    { key: "childCount", title: "regions:children" },
    { key: "sort", title: "fields:sort", sortable: true },
    { key: "updateTime", title: "regions:updateTime", kind: "time" },
  ],
  create: {
    title: "regions:create",
    route: API.region.save,
    schema: regionInput,
    permission: "content.region.edit",
    initial: () => ({ grade: 0, sort: 0 }),
    toBody: (v) => ({ ...v, parentId: v.grade === 0 ? null : (v.parentId ?? null) }),
    fields,
  },
  edit: {
    title: "regions:edit",
    route: API.region.edit,
    schema: regionEdit,
    permission: "content.region.edit",
    toBody: (v, r) => ({ ...v, parentId: v.grade === 0 ? null : (v.parentId ?? null), id: r?.id }),
    fields,
  },
  remove: { route: API.region.del, permission: "content.region.edit", confirm: "regions:confirmDelete" },
});
