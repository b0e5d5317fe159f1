import { type Organisation, organisationCreate, organisationEdit } from "@ess/contracts";
import { CHANNEL_ORG_KINDS } from "@ess/domain";
import { API } from "../../../api/api.ts";
import { defineCrud, type FieldDef } from "../../../ui/crud/index.ts";
import { orgOptions, parentOrgOptions } from "../options.ts";

const kindOptions = { values: CHANNEL_ORG_KINDS, labelKey: "channel:kinds" };

const details: FieldDef[] = [
  { name: "name", label: "channel:screen.enterpriseName", required: true },
  { name: "authorisationCode", help: "channel:screen.codeHelp" },
  { name: "contact", required: true },
  { name: "email", required: true },
  { name: "phone" },
  { name: "showUnderDealers", kind: "switch", help: "channel:screen.showUnderDealersHelp" },
  { name: "remarks", kind: "textarea" },
];

/**
 * The channel (spec §3 Installer user, DESIGN §3): distributors, dealers and installer companies,
 * each made with its enterprise account.
 */
export const organisationsCrud = defineCrud<Organisation>({
  id: "orgs",
  ns: ["channel"],
  list: API.org.page,
  filters: [
    { name: "kind", kind: "select", options: kindOptions },
    { name: "name", label: "channel:screen.enterpriseName" },
    { name: "contact" },
    { name: "email" },
    { name: "parentId", kind: "select", options: orgOptions },
  ],
  columns: [
    { key: "name", title: "channel:screen.enterpriseName", sortable: true },
    { key: "kind", options: kindOptions, sortable: true },
    { key: "parentName", title: "fields:parentId" },
    { key: "authorisationCode" },
    { key: "contact" },
    { key: "email" },
    { key: "phone" },
    { key: "account" },
    { key: "showUnderDealers", kind: "boolean" },
    { key: "createTime", kind: "time", sortable: true },
  ],
  create: {
    title: "channel:screen.create",
    route: API.org.save,
    schema: organisationCreate,
    permission: "org.edit",
    // An empty account, so each of its two fields is refused on its own when left blank.
    initial: () => ({ kind: "installer", showUnderDealers: false, account: {} }),
    fields: [
      { name: "kind", kind: "select", options: kindOptions, required: true },
      { name: "parentId", kind: "select", options: parentOrgOptions, help: "channel:screen.parentHelp" },
      ...details,
      { name: "account.username", label: "fields:account", required: true },
      { name: "account.password", label: "fields:password", kind: "password", required: true, help: "validation:passwordRule" },
    ],
  },
  edit: {
    title: "channel:screen.edit",
    route: API.org.edit,
    schema: organisationEdit,
    permission: "org.edit",
    fields: details,
  },
  remove: { route: API.org.del, permission: "org.edit", confirm: "channel:screen.confirmDelete" },
});
