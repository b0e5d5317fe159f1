import { type EndUser, endUserCreate, endUserEdit } from "@ess/contracts";
import { USER_STATUS } from "@ess/domain";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { defineCrud, type FieldDef } from "../../../ui/crud/index.ts";
import { DefaultPricesButton } from "../components/default-prices-button.tsx";
import { UserDevicesDialog } from "../components/user-devices-dialog.tsx";
import { UserPricesDialog } from "../components/user-prices-dialog.tsx";
import { masterUserOptions, orgOptions } from "../options.ts";

const statusOptions = { values: [USER_STATUS.normal, USER_STATUS.locked], labelKey: "enums:userStatus" };
const locked = (u: EndUser) => u.status === USER_STATUS.locked;

const details: FieldDef[] = [
  { name: "name", required: true },
  { name: "contacts" },
  { name: "phone" },
  { name: "email" },
  { name: "address", kind: "textarea" },
  { name: "timeZone", kind: "timeZone" },
];

/** End users (spec §2 Ordinary-user screen): master users and their sub-users. */
export const endUsersCrud = defineCrud<EndUser>({
  id: "end-users",
  ns: ["channel"],
  list: API.endUser.page,
  filters: [
    { name: "username" },
    { name: "name" },
    { name: "phone" },
    { name: "status", kind: "select", options: statusOptions },
    { name: "orgId", kind: "select", options: orgOptions },
    { name: "parentUserId", kind: "select", options: masterUserOptions },
  ],
  columns: [
    { key: "username", sortable: true },
    { key: "name", sortable: true },
    { key: "contacts" },
    { key: "phone" },
    { key: "email" },
    { key: "address", ellipsis: true, width: 200 },
    { key: "timeZone" },
    { key: "orgName", title: "fields:orgId" },
    { key: "parentUsername", title: "fields:parentUserId" },
    { key: "subUsers", title: "channel:screen.subUsers" },
    { key: "status", options: statusOptions },
    { key: "createTime", kind: "time", sortable: true },
  ],
  create: {
    title: "channel:screen.createEndUser",
    route: API.endUser.save,
    schema: endUserCreate,
    permission: "enduser.edit",
    fields: [
      { name: "username", required: true },
      { name: "password", kind: "password", required: true, help: "validation:passwordRule" },
      ...details,
      { name: "orgId", kind: "select", options: orgOptions },
      { name: "parentUserId", kind: "select", options: masterUserOptions, help: "channel:screen.masterHelp" },
    ],
  },
  edit: {
    title: "channel:screen.editEndUser",
    route: API.endUser.edit,
    schema: endUserEdit,
    permission: "enduser.edit",
    fields: details,
  },
  actions: [
    // Spec §2 Ordinary-user screen: the user's prices (purchase and sale periods) and devices.
    {
      key: "prices",
      label: "channel:prices.action",
      permission: "tariff.view",
      panel: (u, close) => <UserPricesDialog user={u} onClose={close} />,
    },
    {
      key: "devices",
      label: "channel:devices.action",
      permission: "device.view",
      panel: (u, close) => <UserDevicesDialog user={u} onClose={close} />,
    },
    {
      key: "lock",
      label: (u) => (locked(u) ? "crud:unlock" : "crud:lock"),
      permission: "enduser.edit",
      danger: true,
      confirm: (u) => (locked(u) ? "crud:confirmUnlock" : "crud:confirmLock"),
      run: (u) => call(API.endUser.lock, { body: { id: u.id, status: locked(u) ? USER_STATUS.normal : USER_STATUS.locked } }),
    },
  ],
  remove: { route: API.endUser.del, permission: "enduser.edit", confirm: "channel:screen.confirmDeleteEndUser" },
  toolbar: () => <DefaultPricesButton />,
  rowButtons: ["edit", "prices", "devices"],
  actionsWidth: 260,
});
