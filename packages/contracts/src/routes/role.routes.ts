import { PERMISSION_IDS, type PermissionId } from "@ess/domain";
import { z } from "zod";
import { instant, optionalText } from "../account-fields.ts";
import { pageOf } from "../envelope.ts";
import { idBody, idQuery, listQuery, smallIntFilter, textFilter } from "../list.ts";
import { defineRoute } from "../route.ts";
import { text } from "../text.ts";

/** A role (spec §3 Role: name, identifier, description, permissions), named as the original system names them. */
export const roleRecord = z.object({
  id: z.number().int(),
  roleCode: z.string(),
  roleName: z.string(),
  roleDesc: z.string(),
  userType: z.number().int(),
  builtin: z.boolean(),
  permissions: z.array(z.string()),
  users: z.number().int(),
  createTime: instant,
});
export type RoleRecord = z.infer<typeof roleRecord>;

export const roleInput = z.object({
  roleCode: text()
    .trim()
    .regex(/^[A-Z][A-Z0-9_]{1,31}$/),
  roleName: text().trim().min(1).max(64),
  roleDesc: optionalText(255),
  userType: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  permissions: z.array(z.enum(PERMISSION_IDS as [PermissionId, ...PermissionId[]])).max(500),
});

export interface PermissionNode {
  key: string;
  label: string;
  children: PermissionNode[];
}
export const permissionNode: z.ZodType<PermissionNode> = z.object({
  key: z.string(),
  label: z.string(),
  get children() {
    return z.array(permissionNode);
  },
});

const scope = { entity: "tenant" } as const;

/** Roles and their permission sets (spec §3 Role). */
export const roleRoutes = {
  page: defineRoute({
    method: "GET",
    path: "/sys/role/page",
    summary: "Roles, paged",
    tags: ["roles"],
    access: { permission: "sys.role.view" },
    query: listQuery(["id", "roleCode", "roleName", "createTime"], {
      roleName: textFilter,
      roleCode: textFilter,
      userType: smallIntFilter,
    }),
    data: pageOf(roleRecord),
    scope,
  }),
  list: defineRoute({
    method: "GET",
    path: "/sys/role/list",
    summary: "Roles the caller may give to an account (no more than the caller's own permissions)",
    tags: ["roles"],
    access: { permission: "sys.user.view" },
    query: z.object({ userType: smallIntFilter }),
    data: z.array(z.object({ id: z.number().int(), roleCode: z.string(), roleName: z.string(), userType: z.number().int() })),
    scope,
  }),
  info: defineRoute({
    method: "GET",
    path: "/sys/role/info",
    summary: "One role with its permissions",
    tags: ["roles"],
    access: { permission: "sys.role.view" },
    query: idQuery,
    data: roleRecord,
    scope,
  }),
  permissionTree: defineRoute({
    method: "GET",
    path: "/sys/role/permission/tree",
    summary: "Every permission as a tree by resource, labelled in the caller's language",
    tags: ["roles"],
    access: { permission: "sys.role.view" },
    data: z.array(permissionNode),
    scope,
  }),
  save: defineRoute({
    method: "POST",
    path: "/sys/role/save",
    summary: "Add a role",
    tags: ["roles"],
    access: { permission: "sys.role.edit" },
    body: roleInput,
    data: roleRecord,
    scope,
  }),
  edit: defineRoute({
    method: "POST",
    path: "/sys/role/edit",
    summary: "Change a role (not the administrator's)",
    tags: ["roles"],
    access: { permission: "sys.role.edit" },
    body: roleInput.extend({ id: z.number().int().min(1) }),
    data: roleRecord,
    scope,
  }),
  del: defineRoute({
    method: "POST",
    path: "/sys/role/del",
    summary: "Delete a role that no account holds",
    tags: ["roles"],
    access: { permission: "sys.role.edit" },
    body: idBody,
    data: z.null(),
    scope,
  }),
} as const;
