import { CHANNEL_ORG_KINDS, ORG_KINDS } from "@ess/domain";
import { z } from "zod";
import { accountName, email, initialPassword, instant, optionalPhone, optionalText, personName } from "../account-fields.ts";
import { pageOf } from "../envelope.ts";
import { idBody, idFilter, idQuery, listQuery, textFilter } from "../list.ts";
import { defineRoute } from "../route.ts";
import { text } from "../text.ts";
import { evenWithOtherIssues } from "../validation.ts";

/** An organisation of the channel: distributor (level 1), dealer (level 2) or installer company. */
export const organisation = z.object({
  id: z.number().int(),
  kind: z.enum(ORG_KINDS),
  level: z.number().int(),
  parentId: z.number().int().nullable(),
  parentName: z.string().nullable(),
  name: z.string(),
  authorisationCode: z.string().nullable(),
  contact: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  showUnderDealers: z.boolean(),
  remarks: z.string(),
  /** The enterprise account's user name. */
  account: z.string().nullable(),
  createTime: instant,
  updateTime: instant,
});
export type Organisation = z.infer<typeof organisation>;

const orgFields = {
  name: text().trim().min(1).max(128),
  authorisationCode: z.preprocess((v) => (v === "" ? null : v), text().trim().max(64).nullable().default(null)),
  contact: personName,
  email,
  phone: optionalPhone,
  showUnderDealers: z.boolean().default(false),
  remarks: optionalText(500),
};

/** Spec §5: an installer company needs its authorisation code (and enterprise name, contact, e-mail). */
const needsCode = (value: { kind: string; authorisationCode: string | null }, ctx: z.RefinementCtx) => {
  if (value.kind === "installer" && (value.authorisationCode ?? "") === "") {
    ctx.addIssue({ code: "custom", path: ["authorisationCode"], message: "validation:required" });
  }
};

export const organisationCreate = z
  .object({
    kind: z.enum(CHANNEL_ORG_KINDS),
    /** Where it hangs: the manufacturer, a distributor or a dealer (default: the caller's organisation). */
    parentId: z.number().int().min(1).nullable().default(null),
    ...orgFields,
    /** The enterprise account made with it; it must change the password at first sign-in. */
    account: z.object({ username: accountName, password: initialPassword }),
  })
  .superRefine(needsCode, evenWithOtherIssues);

/** Kind and parent stay as created (the authorisation code rule is checked against the stored kind). */
export const organisationEdit = z.object({ id: z.number().int().min(1), ...orgFields });

const ORG_SORT = ["id", "name", "kind", "createTime"] as const;

/** Distributors, dealers and installer companies (reference: /admin/lsyinstaller/*). */
export const orgRoutes = {
  page: defineRoute({
    method: "GET",
    path: "/admin/lsyinstaller/page",
    summary: "Organisations of the channel the caller may see, paged",
    tags: ["channel"],
    access: { permission: "org.view" },
    query: listQuery(ORG_SORT, {
      kind: z.preprocess((v) => (v === "" ? undefined : v), z.enum(CHANNEL_ORG_KINDS).optional()),
      name: textFilter,
      contact: textFilter,
      email: textFilter,
      parentId: idFilter,
    }),
    data: pageOf(organisation),
    scope: { entity: "organisation", refs: [{ in: "query", field: "parentId", entity: "organisation" }] },
  }),
  list: defineRoute({
    method: "GET",
    path: "/admin/lsyinstaller/list",
    summary: "Pick-list of the organisations the caller may see (id, name, kind)",
    tags: ["channel"],
    access: { permission: "org.view" },
    query: z.object({ kind: z.preprocess((v) => (v === "" ? undefined : v), z.enum(ORG_KINDS).optional()) }),
    data: z.array(
      z.object({ id: z.number().int(), name: z.string(), kind: z.enum(ORG_KINDS), parentId: z.number().int().nullable() }),
    ),
    scope: { entity: "organisation", refs: [] },
  }),
  info: defineRoute({
    method: "GET",
    path: "/admin/lsyinstaller/info",
    summary: "One organisation",
    tags: ["channel"],
    access: { permission: "org.view" },
    query: idQuery,
    data: organisation,
    scope: { entity: "organisation", refs: [{ in: "query", field: "id", entity: "organisation" }] },
  }),
  save: defineRoute({
    method: "POST",
    path: "/admin/lsyinstaller/save",
    summary: "Add a distributor, dealer or installer company with its enterprise account",
    tags: ["channel"],
    access: { permission: "org.edit" },
    body: organisationCreate,
    data: organisation,
    scope: { entity: "organisation", refs: [{ in: "body", field: "parentId", entity: "organisation" }] },
  }),
  edit: defineRoute({
    method: "POST",
    path: "/admin/lsyinstaller/edit",
    summary: "Change an organisation's details",
    tags: ["channel"],
    access: { permission: "org.edit" },
    body: organisationEdit,
    data: organisation,
    scope: { entity: "organisation", refs: [{ in: "body", field: "id", entity: "organisation" }] },
  }),
  del: defineRoute({
    method: "POST",
    path: "/admin/lsyinstaller/del",
    summary: "Delete an organisation that has nothing below it",
    tags: ["channel"],
    access: { permission: "org.edit" },
    body: idBody,
    data: z.null(),
    scope: { entity: "organisation", refs: [{ in: "body", field: "id", entity: "organisation" }] },
  }),
} as const;
