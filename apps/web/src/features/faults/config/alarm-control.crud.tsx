import { type AlarmControlRecord, alarmControlInput } from "@ess/contracts";
import { z } from "zod";
import { API } from "../../../api/api.ts";
import { defineCrud, type FieldDef } from "../../../ui/crud/index.ts";

const fields: FieldDef[] = [
  { name: "code", kind: "number", label: "faults:columns.code", required: true },
  { name: "name", label: "faults:columns.name", required: true },
  { name: "description", kind: "textarea", label: "faults:columns.description", required: true },
  { name: "display", kind: "switch", label: "faults:columns.display" },
  { name: "sort", kind: "number", label: "faults:columns.sort" },
];

/** Alarm control (spec §3): which codes are shown in the alarm lists and pushed as reminders. */
export const alarmControlCrud = defineCrud<AlarmControlRecord>({
  id: "alarm-control",
  ns: ["faults"],
  list: API.alarmControl.page,
  filters: [
    { name: "code", kind: "number", label: "faults:columns.code" },
    { name: "name", label: "faults:columns.name" },
  ],
  columns: [
    { key: "code", title: "faults:columns.code", sortable: true },
    { key: "name", title: "faults:columns.name" },
    { key: "description", title: "faults:columns.description", ellipsis: true },
    { key: "createTime", title: "faults:columns.createTime", kind: "time", sortable: true },
    { key: "display", title: "faults:columns.display", kind: "boolean" },
    { key: "sort", title: "faults:columns.sort", sortable: true },
  ],
  create: {
    title: "faults:actions.add",
    route: API.alarmControl.save,
    schema: alarmControlInput,
    permission: "fault.edit",
    initial: () => ({ display: true, sort: 0 }),
    fields,
  },
  edit: {
    title: "faults:actions.edit",
    route: API.alarmControl.edit,
    schema: alarmControlInput.extend({ id: z.number().int().min(1) }),
    permission: "fault.edit",
    fields,
  },
  remove: { route: API.alarmControl.del, permission: "fault.edit", confirm: "faults:confirmDeleteControl" },
});
