import { CANCELLATION_TYPES } from "@ess/domain";
import { z } from "zod";
import { instant, optionalEmail, optionalText } from "../account-fields.ts";
import { pageOf } from "../envelope.ts";
import { idBody, listQuery, smallIntFilter, textFilter } from "../list.ts";
import { defineRoute } from "../route.ts";

/** An account deletion request (spec §3 Cancellation record). */
export const cancellationRecord = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  username: z.string(),
  email: z.string().nullable(),
  ip: z.string().nullable(),
  /** Reason: 0 several accounts (release the e-mail address), 1 no longer wanted, 2 other. */
  type: z.number().int(),
  reason: z.string(),
  /** 0 pending review, 1 approved (the account is gone), 2 refused. */
  status: z.number().int(),
  remarks: z.string(),
  reviewer: z.string().nullable(),
  reviewTime: instant.nullable(),
  createTime: instant,
});
export type CancellationRecord = z.infer<typeof cancellationRecord>;

export const cancellationRoutes = {
  apply: defineRoute({
    method: "POST",
    path: "/admin/user/logout/apply",
    summary: "Ask for the caller's own account to be deleted",
    tags: ["cancellation"],
    access: { signedIn: true },
    body: z.object({
      type: z.union(CANCELLATION_TYPES.map((t) => z.literal(t)) as [z.ZodLiteral<0>, z.ZodLiteral<1>, z.ZodLiteral<2>]),
      reason: optionalText(500),
      email: optionalEmail,
    }),
    data: cancellationRecord,
    scope: { entity: "self" },
  }),
  page: defineRoute({
    method: "GET",
    path: "/admin/user/logout/page",
    summary: "Account deletion requests, paged",
    tags: ["cancellation"],
    access: { permission: "cancel.view" },
    query: listQuery(["id", "createTime", "status"], {
      status: smallIntFilter,
      type: smallIntFilter,
      username: textFilter,
      email: textFilter,
    }),
    data: pageOf(cancellationRecord),
    scope: { entity: "cancellation", refs: [] },
    demo: "hidden",
  }),
  review: defineRoute({
    method: "POST",
    path: "/admin/user/logout/review",
    summary: "Approve (status 1: the account is deleted for good) or refuse (status 2) a pending request",
    tags: ["cancellation"],
    access: { permission: "cancel.review" },
    body: z.object({
      id: z.number().int().min(1),
      status: z.union([z.literal(1), z.literal(2)]),
      remarks: optionalText(500),
    }),
    data: cancellationRecord,
    scope: { entity: "cancellation", refs: [{ in: "body", field: "id", entity: "cancellation" }] },
  }),
  del: defineRoute({
    method: "POST",
    path: "/admin/user/logout/del",
    summary: "Delete a request record",
    tags: ["cancellation"],
    access: { permission: "cancel.delete" },
    body: idBody,
    data: z.null(),
    scope: { entity: "cancellation", refs: [{ in: "body", field: "id", entity: "cancellation" }] },
  }),
} as const;
