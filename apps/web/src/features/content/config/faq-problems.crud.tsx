import { type FaqProblem, faqProblemEdit, faqProblemInput, localisedLabel } from "@ess/contracts";
import { FAQ_STATES } from "@ess/domain";
import { Descriptions } from "antd";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { defineCrud, type FieldDef, type OptionSource } from "../../../ui/crud/index.ts";
import { inLanguage, localisedFields } from "./localised.ts";

const stateOptions = { values: FAQ_STATES, labelKey: "faq:states" };
const classOptions: OptionSource = {
  key: "faq-classifications",
  load: async () => (await call(API.faq.classOptions, {})).map((c) => ({ value: c.id, label: inLanguage(c.name) })),
};

const fields: FieldDef[] = [
  { name: "classificationId", label: "fields:faqClassification", kind: "select", options: classOptions, required: true },
  ...localisedFields("title"),
  ...localisedFields("content", "textarea"),
  { name: "sort", label: "fields:sort", kind: "number" },
  { name: "state", label: "fields:faqState", kind: "select", options: stateOptions },
];

/** FAQ problems (spec §2, §3 Problem): classification, title and content in five languages, shown or hidden. */
export const faqProblemsCrud = defineCrud<FaqProblem>({
  id: "faq-problems",
  ns: ["faq"],
  list: API.faq.problemPage,
  filters: [
    { name: "classificationId", label: "fields:faqClassification", kind: "select", options: classOptions },
    { name: "state", label: "fields:faqState", kind: "select", options: stateOptions },
    { name: "keyword", label: "fields:faqKeyword" },
  ],
  columns: [
    { key: "classificationId", title: "faq:problems.classification", render: (r) => inLanguage(r.classificationName) },
    { key: "sort", title: "fields:sort", sortable: true },
    { key: "title", title: "faq:problems.title", render: (r) => inLanguage(r.title), width: 280 },
    { key: "state", title: "fields:faqState", options: stateOptions },
    { key: "updateTime", title: "faq:problems.updateTime", kind: "time", sortable: true },
  ],
  expand: (r, t) => (
    <Descriptions column={1} size="small" bordered>
      {Object.entries(r.content)
        .filter(([, text]) => text)
        .map(([lang, text]) => (
          <Descriptions.Item key={lang} label={t(localisedLabel("content", lang))}>
            <div style={{ whiteSpace: "pre-wrap" }}>{text}</div>
          </Descriptions.Item>
        ))}
    </Descriptions>
  ),
  create: {
    title: "faq:problems.create",
    route: API.faq.problemSave,
    schema: faqProblemInput,
    permission: "content.faq.edit",
    initial: () => ({ sort: 0, state: 1 }),
    fields,
  },
  edit: {
    title: "faq:problems.edit",
    route: API.faq.problemEdit,
    schema: faqProblemEdit,
    permission: "content.faq.edit",
    fields,
  },
  remove: { route: API.faq.problemDel, permission: "content.faq.edit", confirm: "faq:problems.confirmDelete" },
});
