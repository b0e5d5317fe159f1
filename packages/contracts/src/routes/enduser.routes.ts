import { USER_STATUS } from "@ess/domain";
import { z } from "zod";
import {
  accountName,
  initialPassword,
  instant,
  optionalEmail,
  optionalPhone,
  optionalText,
  optionalTimeZone,
  personName,
} from "../account-fields.ts";
import { pageOf } from "../envelope.ts";
import { idBody, idFilter, idQuery, listQuery, smallIntFilter, textFilter } from "../list.ts";
import { defineRoute } from "../route.ts";

/** An end user (ordinary user, spec §2 Ordinary-user screen): a master user or one of its sub-users. */
export const endUser = z.object({
  id: z.number().int(),
  username: z.string(),
  name: z.string(),
  contacts: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  address: z.string(),
  timeZone: z.string().nullable(),
  status: z.number().int(),
  /** The organisation (installer, dealer…) that serves the user. */
  orgId: z.number().int().nullable(),
  orgName: z.string().nullable(),
  /** For a sub-user: its master user. */
  parentUserId: z.number().int().nullable(),
  parentUsername: z.string().nullable(),
  subUsers: z.number().int(),
  createTime: instant,
});
export type EndUser = z.infer<typeof endUser>;

const details = {
  name: personName,
  contacts: optionalText(64),
  phone: optionalPhone,
  email: optionalEmail,
  address: optionalText(255),
  timeZone: optionalTimeZone,
};

export const endUserCreate = z.object({
  username: accountName,
  password: initialPassword,
  ...details,
  /** The serving organisation (default: the caller's; a sub-user takes its master's). */
  orgId: z.number().int().min(1).nullable().default(null),
  /** Makes the new account a sub-user of this master user. */
  parentUserId: z.number().int().min(1).nullable().default(null),
});
export const endUserEdit = z.object({ id: z.number().int().min(1), ...details });
export const lockBody = z.object({
  id: z.number().int().min(1),
  status: z.union([z.literal(USER_STATUS.normal), z.literal(USER_STATUS.locked)]),
});

/** End-user (app) accounts (reference: /admin/lsyuser/*). */
export const endUserRoutes = {
  page: defineRoute({
    method: "GET",
    path: "/admin/lsyuser/page",
    summary: "End users the caller may see, paged",
    tags: ["end users"],
    access: { permission: "enduser.view" },
    query: listQuery(["id", "username", "name", "createTime"], {
      username: textFilter,
      name: textFilter,
      phone: textFilter,
      status: smallIntFilter,
      orgId: idFilter,
      parentUserId: idFilter,
    }),
    data: pageOf(endUser),
    scope: {
      entity: "user",
      refs: [
        { in: "query", field: "orgId", entity: "organisation" },
        { in: "query", field: "parentUserId", entity: "user" },
      ],
    },
    demo: "hidden",
  }),
  info: defineRoute({
    method: "GET",
    path: "/admin/lsyuser/info",
    summary: "One end user",
    tags: ["end users"],
    access: { permission: "enduser.view" },
    query: idQuery,
    data: endUser,
    scope: { entity: "user", refs: [{ in: "query", field: "id", entity: "user" }] },
    demo: "hidden",
  }),
  save: defineRoute({
    method: "POST",
    path: "/admin/lsyuser/save",
    summary: "Add an end user (master user, or sub-user of one)",
    tags: ["end users"],
    access: { permission: "enduser.edit" },
    body: endUserCreate,
    data: endUser,
    scope: {
      entity: "user",
      refs: [
        { in: "body", field: "orgId", entity: "organisation" },
        { in: "body", field: "parentUserId", entity: "user" },
      ],
    },
  }),
  edit: defineRoute({
    method: "POST",
    path: "/admin/lsyuser/edit",
    summary: "Change an end user's details",
    tags: ["end users"],
    access: { permission: "enduser.edit" },
    body: endUserEdit,
    data: endUser,
    scope: { entity: "user", refs: [{ in: "body", field: "id", entity: "user" }] },
  }),
  lock: defineRoute({
    method: "POST",
    path: "/admin/lsyuser/lock",
    summary: "Lock (status 1) or unlock (status 0) an end user",
    tags: ["end users"],
    access: { permission: "enduser.edit" },
    body: lockBody,
    data: z.null(),
    scope: { entity: "user", refs: [{ in: "body", field: "id", entity: "user" }] },
  }),
  del: defineRoute({
    method: "POST",
    path: "/admin/lsyuser/del",
    summary: "Delete an end user (its sub-users with it; its devices become unbound)",
    tags: ["end users"],
    access: { permission: "enduser.edit" },
    body: idBody,
    data: z.null(),
    scope: { entity: "user", refs: [{ in: "body", field: "id", entity: "user" }] },
  }),
} as const;
