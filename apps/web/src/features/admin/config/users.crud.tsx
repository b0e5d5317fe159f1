import { passwordReset, type UserRecord, userCreate, userEdit } from "@ess/contracts";
import { USER_STATUS } from "@ess/domain";
import { Tag } from "antd";
import { API } from "../../../api/api.ts";
import { call } from "../../../api/client.ts";
import { sessionStore } from "../../../app/session.ts";
import { defineCrud, type FieldDef } from "../../../ui/crud/index.ts";
import { orgOptions } from "../../channel/options.ts";
import { roleLabel, roleOptions } from "../options.ts";

const USER_TYPES = [0, 1, 2] as const;
const userTypeOptions = { values: USER_TYPES, labelKey: "enums:userTypeFilter" };
const statusOptions = { values: [USER_STATUS.normal, USER_STATUS.locked], labelKey: "enums:userStatus" };

/** One's own account is locked, reset or deleted elsewhere (the server refuses it here). */
const notSelf = (u: UserRecord) => u.id !== sessionStore.get()?.userInfo?.user.id;

const details: FieldDef[] = [
  { name: "name", required: true },
  { name: "phone" },
  { name: "email" },
  { name: "timeZone", kind: "timeZone" },
];

/**
 * Accounts (spec §3 User). `userType` fixes the screen to one kind of account: the installer
 * users screen is this list for channel staff (type 1).
 */
export function userScreen(id: string, userType?: 0 | 1 | 2) {
  const fixed = userType !== undefined;
  return defineCrud<UserRecord>({
    id,
    ns: ["users", "roles", "channel"],
    list: API.user.page,
    baseQuery: fixed ? { userType } : {},
    filters: [
      { name: "username" },
      { name: "name" },
      { name: "phone" },
      ...(fixed ? [] : [{ name: "userType", kind: "select", options: userTypeOptions } as FieldDef]),
      { name: "status", kind: "select", options: statusOptions },
      { name: "roleId", kind: "select", options: roleOptions },
      { name: "orgId", kind: "select", options: orgOptions },
    ],
    columns: [
      { key: "username", sortable: true },
      { key: "name", sortable: true },
      ...(fixed ? [] : [{ key: "userType", options: userTypeOptions }]),
      {
        key: "roles",
        render: (u) => u.roles.map((r) => <Tag key={r.id}>{roleLabel({ roleCode: r.code, roleName: r.name })}</Tag>),
      },
      { key: "orgName", title: "fields:orgId" },
      { key: "phone" },
      {
        key: "status",
        render: (u, t) => (
          <Tag color={u.status === USER_STATUS.locked || u.lockedUntil ? "red" : "green"}>
            {t(`enums:userStatus.${u.lockedUntil ? USER_STATUS.locked : u.status}`)}
          </Tag>
        ),
      },
      { key: "lastLoginTime", kind: "time", sortable: true },
      { key: "createTime", kind: "time", sortable: true },
    ],
    create: {
      title: "users:screen.create",
      route: API.user.save,
      schema: userCreate,
      permission: "sys.user.edit",
      initial: () => (fixed ? { userType } : { userType: 0 }),
      fields: [
        { name: "username", required: true },
        { name: "password", kind: "password", required: true, help: "validation:passwordRule" },
        ...details,
        { name: "userType", kind: "select", options: userTypeOptions, required: true, disabled: fixed },
        { name: "orgId", kind: "select", options: orgOptions, visible: (v) => v.userType !== 0 },
        { name: "roleIds", kind: "multiSelect", options: roleOptions, required: true },
      ],
    },
    edit: {
      title: "users:screen.edit",
      route: API.user.edit,
      schema: userEdit,
      permission: "sys.user.edit",
      initial: (u) => ({
        name: u?.name,
        phone: u?.phone,
        email: u?.email,
        timeZone: u?.timeZone,
        roleIds: u?.roles.map((r) => r.id),
      }),
      fields: [...details, { name: "roleIds", kind: "multiSelect", options: roleOptions, required: true }],
    },
    actions: [
      {
        key: "lock",
        label: (u) => (u.status === USER_STATUS.locked || u.lockedUntil ? "crud:unlock" : "crud:lock"),
        permission: "sys.user.edit",
        danger: true,
        visible: notSelf,
        confirm: (u) => (u.status === USER_STATUS.locked || u.lockedUntil ? "crud:confirmUnlock" : "crud:confirmLock"),
        run: (u) =>
          call(API.user.lock, {
            body: {
              id: u.id,
              status: u.status === USER_STATUS.locked || u.lockedUntil ? USER_STATUS.normal : USER_STATUS.locked,
            },
          }),
      },
      {
        key: "password",
        label: "users:screen.resetPassword",
        permission: "sys.user.edit",
        visible: notSelf,
        form: {
          title: "users:screen.resetTitle",
          intro: "users:screen.resetNote",
          route: API.user.passwordReset,
          schema: passwordReset,
          initial: () => ({}),
          success: "users:screen.resetDone",
          fields: [{ name: "password", kind: "password", required: true, help: "validation:passwordRule" }],
        },
      },
    ],
    remove: { route: API.user.del, permission: "sys.user.edit", confirm: "users:screen.confirmDelete", visible: notSelf },
    export: { route: API.user.export, permission: "sys.user.view", fileName: `${id}.csv` },
    actionsWidth: 260,
  });
}
