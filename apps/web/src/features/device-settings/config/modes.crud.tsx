import { type ModeRecord, modeInput } from "@ess/contracts";
import { API } from "../../../api/api.ts";
import { defineCrud, type FieldDef } from "../../../ui/crud/index.ts";
import { PeriodRangesInput } from "../components/period-ranges-input.tsx";

const label = (name: string) => `schedules:modes.fields.${name}`;
const stateOptions = { values: [1, 0], labelKey: "schedules:modes.states" };

const fields: FieldDef[] = [
  { name: "code", label: label("code"), required: true },
  { name: "name", label: label("name"), required: true },
  { name: "description", label: label("description"), kind: "textarea", required: true },
  { name: "state", label: label("state"), kind: "select", options: stateOptions },
  { name: "sort", label: label("sort"), kind: "number" },
  { name: "chargeEnabled", label: label("chargeEnabled"), kind: "switch" },
  { name: "sellEnabled", label: label("sellEnabled"), kind: "switch" },
  { name: "dischargeEnabled", label: label("dischargeEnabled"), kind: "switch" },
  { name: "chargeSoc", label: label("chargeSoc"), kind: "number", required: true },
  { name: "sellSoc", label: label("sellSoc"), kind: "number", required: true },
  { name: "dischargeOffSoc", label: label("dischargeOffSoc"), kind: "number", required: true },
  {
    name: "periodsText",
    label: label("periodsText"),
    // Laid out across the dialog's full width like a text area.
    kind: "textarea",
    required: true,
    help: "schedules:modes.periodsHelp",
    input: (props) => <PeriodRangesInput {...props} />,
  },
];

/** Mode management: operating modes with their switches, SOC limits and whole-day periods (spec §5 rules). */
export const modesCrud = defineCrud<ModeRecord>({
  id: "modes",
  ns: ["schedules"],
  list: API.mode.page,
  filters: [
    { name: "name", label: label("name") },
    { name: "code", label: label("code") },
  ],
  columns: [
    { key: "sort", title: label("sort") },
    { key: "code", title: label("code") },
    { key: "name", title: label("name") },
    { key: "description", title: label("description"), ellipsis: true, width: 220 },
    { key: "state", title: label("state"), options: stateOptions },
    { key: "chargeEnabled", title: label("chargeEnabled"), kind: "boolean" },
    { key: "sellEnabled", title: label("sellEnabled"), kind: "boolean" },
    { key: "dischargeEnabled", title: label("dischargeEnabled"), kind: "boolean" },
    { key: "chargeSoc", title: label("chargeSoc") },
    { key: "sellSoc", title: label("sellSoc") },
    { key: "dischargeOffSoc", title: label("dischargeOffSoc") },
    { key: "periodsText", title: label("periodsText"), render: (r) => r.periodsText.split("\n").join(", ") },
    { key: "updateTime", title: label("updateTime"), kind: "time" },
  ],
  create: {
    title: "schedules:modes.create",
    route: API.mode.save,
    schema: modeInput,
    permission: "mode.edit",
    initial: () => ({
      state: 1,
      sort: 0,
      chargeEnabled: false,
      sellEnabled: false,
      dischargeEnabled: false,
      periodsText: "00:00-23:59",
    }),
    fields,
  },
  edit: { title: "schedules:modes.edit", route: API.mode.edit, schema: modeInput, permission: "mode.edit", fields },
  remove: { route: API.mode.del, permission: "mode.edit", confirm: "schedules:modes.confirmDelete" },
});
