import { type FaultRecord, faultInput } from "@ess/contracts";
import { LOCALES } from "@ess/domain";
import i18next from "i18next";
import { z } from "zod";
import { API } from "../../../api/api.ts";
import { defineCrud, type FieldDef } from "../../../ui/crud/index.ts";
import { levelTag } from "../components/level-tag.tsx";
import { categoryOptions, levelOptions, systemTypeOptions } from "../options.ts";

/** The i18n key labelling one text input: the text's name and its language (`faults:texts.<locale>.<part>`). */
const textLabel = (locale: string, part: "info" | "causes" | "remedy") => ["faults:texts", locale, part].join(".");

/** Code, level, system type, category and display, then the three texts in each of the five languages. */
const fields: FieldDef[] = [
  { name: "code", kind: "number", label: "faults:columns.code", required: true },
  { name: "level", kind: "select", options: levelOptions, label: "faults:columns.level", required: true },
  { name: "systemType", kind: "select", options: systemTypeOptions, label: "faults:columns.systemType", required: true },
  { name: "category", kind: "select", options: categoryOptions, label: "faults:columns.category" },
  { name: "display", kind: "switch", label: "faults:columns.display" },
  ...LOCALES.flatMap((l): FieldDef[] => [
    { name: `texts.${l}.info`, label: textLabel(l, "info"), required: true },
    { name: `texts.${l}.causes`, label: textLabel(l, "causes"), kind: "textarea", required: true },
    { name: `texts.${l}.remedy`, label: textLabel(l, "remedy"), kind: "textarea", required: true },
  ]),
];

/** The fault catalogue (spec §3 Fault info): codes with their texts in every language. */
export const faultsCrud = defineCrud<FaultRecord>({
  id: "faults",
  ns: ["faults", "alarms"],
  list: API.fault.page,
  filters: [
    { name: "code", kind: "number", label: "faults:columns.code" },
    { name: "info", label: "faults:columns.info" },
    { name: "level", kind: "select", options: levelOptions, label: "faults:columns.level" },
    { name: "systemType", kind: "select", options: systemTypeOptions, label: "faults:columns.systemType" },
    { name: "category", kind: "select", options: categoryOptions, label: "faults:columns.category" },
  ],
  columns: [
    { key: "code", title: "faults:columns.code", sortable: true },
    { key: "level", title: "faults:columns.level", sortable: true, render: (f, t) => levelTag(f.level, t) },
    { key: "systemType", title: "faults:columns.systemType", options: systemTypeOptions },
    { key: "category", title: "faults:columns.category", options: categoryOptions },
    {
      key: "info",
      title: "faults:columns.info",
      render: (f) => f.texts[i18next.language]?.info ?? f.texts["en-US"]?.info ?? "—",
    },
    { key: "display", title: "faults:columns.display", kind: "boolean" },
    { key: "updateTime", title: "faults:columns.updateTime", kind: "time" },
  ],
  expand: (f, t) => {
    const text = f.texts[i18next.language] ?? f.texts["en-US"];
    return (
      <div style={{ whiteSpace: "pre-wrap" }}>
        <p>
          <b>{t("faults:columns.causes")}:</b> {text?.causes}
        </p>
        <p>
          <b>{t("faults:columns.remedy")}:</b> {text?.remedy}
        </p>
      </div>
    );
  },
  create: {
    title: "faults:actions.add",
    route: API.fault.save,
    schema: faultInput,
    permission: "fault.edit",
    // Every text starts empty, so a missing one is refused on its own input.
    initial: () => ({
      display: true,
      level: 1,
      texts: Object.fromEntries(LOCALES.map((l) => [l, { info: "", causes: "", remedy: "" }])),
    }),
    fields,
  },
  edit: {
    title: "faults:actions.edit",
    route: API.fault.edit,
    schema: faultInput.extend({ id: z.number().int().min(1) }),
    permission: "fault.edit",
    fields,
  },
  remove: { route: API.fault.del, permission: "fault.edit", confirm: "faults:confirmDelete" },
  export: { route: API.fault.export, permission: "fault.view", fileName: "fault-catalogue.json" },
});
