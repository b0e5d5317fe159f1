import { z } from "zod";
import {
  accountName,
  initialPassword,
  instant,
  optionalEmail,
  optionalPhone,
  optionalTimeZone,
  personName,
} from "../account-fields.ts";
import { pageOf } from "../envelope.ts";
import { idBody, idFilter, listQuery, smallIntFilter, textFilter } from "../list.ts";
import { defineRoute } from "../route.ts";
import { lockBody } from "./enduser.routes.ts";

export const roleRef = z.object({ id: z.number().int(), code: z.string(), name: z.string() });

/** An account as the user screen shows it (spec §3 User). */
export const userRecord = z.object({
  id: z.number().int(),
  username: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  /** 0 back office, 1 channel (installer, dealer, distributor), 2 end user. */
  userType: z.number().int(),
  /** 0 normal, 1 locked. */
  status: z.number().int(),
  /** Set while a lock that failed sign-ins caused lasts. */
  lockedUntil: instant.nullable(),
  timeZone: z.string().nullable(),
  orgId: z.number().int().nullable(),
  orgName: z.string().nullable(),
  roles: z.array(roleRef),
  lastLoginTime: instant.nullable(),
  createTime: instant,
});
export type UserRecord = z.infer<typeof userRecord>;

const userType = z.union([z.literal(0), z.literal(1), z.literal(2)]);
const roleIds = z.array(z.number().int().min(1)).min(1).max(20);

export const userCreate = z.object({
  username: accountName,
  password: initialPassword,
  name: personName,
  phone: optionalPhone,
  email: optionalEmail,
  timeZone: optionalTimeZone,
  userType,
  /** The organisation (channel and end users); back office staff belong to the manufacturer. */
  orgId: z.number().int().min(1).nullable().default(null),
  roleIds,
});
export const userEdit = z.object({
  id: z.number().int().min(1),
  name: personName,
  phone: optionalPhone,
  email: optionalEmail,
  timeZone: optionalTimeZone,
  roleIds,
});
export const passwordReset = z.object({ id: z.number().int().min(1), password: initialPassword });

const USER_SORT = ["id", "username", "name", "createTime", "lastLoginTime"] as const;
export const userListQuery = listQuery(USER_SORT, {
  username: textFilter,
  name: textFilter,
  phone: textFilter,
  userType: smallIntFilter,
  status: smallIntFilter,
  roleId: idFilter,
  orgId: idFilter,
});

/** Accounts of every type (spec §7 /sys/user/...). */
export const userRoutes = {
  page: defineRoute({
    method: "GET",
    path: "/sys/user/page",
    summary: "Accounts the caller may see, paged",
    tags: ["users"],
    access: { permission: "sys.user.view" },
    query: userListQuery,
    data: pageOf(userRecord),
    scope: { entity: "user", refs: [{ in: "query", field: "orgId", entity: "organisation" }] },
    demo: "hidden",
  }),
  export: defineRoute({
    method: "GET",
    path: "/sys/user/export",
    summary: "The same accounts as CSV (at most 10,000 rows)",
    tags: ["users"],
    access: { permission: "sys.user.view" },
    query: userListQuery.omit({ current: true, size: true }),
    data: z.string().describe("text/csv"),
    raw: true,
    scope: { entity: "user", refs: [{ in: "query", field: "orgId", entity: "organisation" }] },
    demo: "hidden",
  }),
  details: defineRoute({
    method: "GET",
    path: "/sys/user/:id",
    summary: "One account",
    tags: ["users"],
    access: { permission: "sys.user.view" },
    params: z.object({ id: z.coerce.number().int().min(1) }),
    data: userRecord,
    scope: { entity: "user", refs: [{ in: "params", field: "id", entity: "user" }] },
    demo: "hidden",
  }),
  save: defineRoute({
    method: "POST",
    path: "/sys/user/save",
    summary: "Add an account (it must change its password at first sign-in)",
    tags: ["users"],
    access: { permission: "sys.user.edit" },
    body: userCreate,
    data: userRecord,
    scope: { entity: "user", refs: [{ in: "body", field: "orgId", entity: "organisation" }] },
  }),
  edit: defineRoute({
    method: "POST",
    path: "/sys/user/edit",
    summary: "Change an account's details and roles",
    tags: ["users"],
    access: { permission: "sys.user.edit" },
    body: userEdit,
    data: userRecord,
    scope: { entity: "user", refs: [{ in: "body", field: "id", entity: "user" }] },
  }),
  lock: defineRoute({
    method: "POST",
    path: "/sys/user/lock",
    summary: "Lock (status 1) or unlock (status 0) an account; unlocking also clears failed sign-ins",
    tags: ["users"],
    access: { permission: "sys.user.edit" },
    body: lockBody,
    data: z.null(),
    scope: { entity: "user", refs: [{ in: "body", field: "id", entity: "user" }] },
  }),
  passwordReset: defineRoute({
    method: "POST",
    path: "/sys/user/password/reset",
    summary: "Set another account's password; it must be changed at next sign-in",
    tags: ["users"],
    access: { permission: "sys.user.edit" },
    body: passwordReset,
    data: z.null(),
    scope: { entity: "user", refs: [{ in: "body", field: "id", entity: "user" }] },
  }),
  del: defineRoute({
    method: "POST",
    path: "/sys/user/del",
    summary: "Delete an account for good (anonymised)",
    tags: ["users"],
    access: { permission: "sys.user.edit" },
    body: idBody,
    data: z.null(),
    scope: { entity: "user", refs: [{ in: "body", field: "id", entity: "user" }] },
  }),
} as const;
