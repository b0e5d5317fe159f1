import { type RoleRecord, roleInput } from "@ess/contracts";
import { ADMIN_ROLE_CODE } from "@ess/domain";
import { Tag } from "antd";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { defineCrud, type FieldDef } from "../../../ui/crud/index.ts";
import { roleLabel } from "../options.ts";

const userTypeOptions = { values: [0, 1, 2], labelKey: "enums:userTypeFilter" };

const fields: FieldDef[] = [
  { name: "roleCode", required: true, help: "roles:screen.codeRule" },
  { name: "roleName", required: true },
  { name: "roleDesc", kind: "textarea" },
  { name: "userType", kind: "select", options: userTypeOptions, required: true },
  // The registry's permissions as a tree by resource, labelled by the server in the user's language.
  { name: "permissions", kind: "tree", tree: { key: "permissions", load: () => call(API.role.permissionTree) } },
];

/** Roles and their permission sets (spec §3 Role). The administrator's role holds everything and stays as it is. */
export const rolesCrud = defineCrud<RoleRecord>({
  id: "roles",
  ns: ["roles", "users", "permissions"],
  list: API.role.page,
  filters: [{ name: "roleName" }, { name: "roleCode" }, { name: "userType", kind: "select", options: userTypeOptions }],
  columns: [
    { key: "roleCode", sortable: true },
    { key: "roleName", sortable: true, render: (r) => roleLabel(r) },
    { key: "roleDesc", ellipsis: true, width: 240 },
    { key: "userType", options: userTypeOptions },
    {
      key: "permissions",
      render: (r, t) =>
        r.roleCode === ADMIN_ROLE_CODE ? <Tag color="gold">{t("roles:screen.allPermissions")}</Tag> : r.permissions.length,
    },
    { key: "users", title: "roles:screen.users" },
    { key: "builtin", title: "roles:screen.builtin", kind: "boolean" },
    { key: "createTime", kind: "time", sortable: true },
  ],
  create: {
    title: "roles:screen.create",
    route: API.role.save,
    schema: roleInput,
    permission: "sys.role.edit",
    initial: () => ({ userType: 0, permissions: [] }),
    fields,
  },
  edit: {
    title: "roles:screen.edit",
    route: API.role.edit,
    // The row id is added to the body; the rest follows the same rules as a new role.
    schema: roleInput,
    permission: "sys.role.edit",
    visible: (r) => r.roleCode !== ADMIN_ROLE_CODE,
    fields,
  },
  remove: {
    route: API.role.del,
    permission: "sys.role.edit",
    confirm: "roles:screen.confirmDelete",
    visible: (r) => r.roleCode !== ADMIN_ROLE_CODE && r.users === 0,
  },
});
