import { z } from "zod";
import { instant } from "../account-fields.ts";
import { pageOf } from "../envelope.ts";
import { idBody, idFilter, listQuery, smallIntFilter, textFilter, timeFilter } from "../list.ts";
import { defineRoute } from "../route.ts";
import { id, text } from "../text.ts";
import { feedbackReply } from "./message.routes.ts";

/** A feedback item as staff see it (spec §3 Feedback: processing status, account, content, contact, pictures). */
export const feedbackRecord = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  username: z.string(),
  /** 0 download/load, 1 image/chapter, 2 app experience, 3 other. */
  type: z.number().int(),
  content: z.string(),
  contact: z.string(),
  pictures: z.array(z.number().int()).nullable(),
  /** Where the pictures are served, in their order. */
  pictureUrls: z.array(z.string()),
  /** 0 to be read, 1 read, 2 needs handling, 3 handled. */
  state: z.number().int(),
  assigneeId: z.number().int().nullable(),
  assignee: z.string().nullable(),
  replies: z.array(feedbackReply),
  createTime: instant,
  readTime: instant.nullable(),
  handledTime: instant.nullable(),
});
export type FeedbackRecord = z.infer<typeof feedbackRecord>;

export const FEEDBACK_SORT = ["id", "createTime", "state", "type"] as const;
export const feedbackListQuery = listQuery(FEEDBACK_SORT, {
  state: smallIntFilter.meta({ label: "fields:feedbackState" }),
  type: smallIntFilter.meta({ label: "fields:feedbackType" }),
  username: textFilter,
  userId: idFilter,
  beginTime: timeFilter,
  endTime: timeFilter,
});

/** A staff member's answer: a state further along the flow, who handles it, and a reply the user sees. */
export const feedbackHandle = z.object({
  id: id(),
  state: z.union([z.literal(1), z.literal(2), z.literal(3)]).meta({ label: "fields:feedbackState" }),
  /** A console account in the caller's scope; null hands it back to nobody; left out keeps whoever has it. */
  assigneeId: id().nullable().optional().meta({ label: "fields:assigneeId" }),
  reply: text().trim().max(2000).default("").meta({ label: "fields:reply" }),
});

const feedbackScope = (...refs: { in: "query" | "body"; field: string; entity: "feedback" | "user" }[]) =>
  ({ entity: "feedback", refs }) as const;

export const feedbackRoutes = {
  page: defineRoute({
    method: "GET",
    path: "/admin/feedback/page",
    summary: "Feedback of end users in the caller's scope, newest first",
    tags: ["feedback"],
    access: { permission: "feedback.view" },
    query: feedbackListQuery,
    data: pageOf(feedbackRecord),
    scope: feedbackScope({ in: "query", field: "userId", entity: "user" }),
    demo: "hidden",
  }),
  open: defineRoute({
    method: "POST",
    path: "/admin/feedback/open",
    summary: "Open a feedback item: one still to be read becomes read",
    tags: ["feedback"],
    access: { permission: "feedback.view" },
    body: idBody,
    data: feedbackRecord,
    scope: feedbackScope({ in: "body", field: "id", entity: "feedback" }),
  }),
  handle: defineRoute({
    method: "POST",
    path: "/admin/feedback/handle",
    summary: "Move a feedback item forward (1 read, 2 needs handling, 3 handled), assign it and reply to its user",
    tags: ["feedback"],
    access: { permission: "feedback.handle" },
    body: feedbackHandle,
    data: feedbackRecord,
    scope: feedbackScope({ in: "body", field: "id", entity: "feedback" }, { in: "body", field: "assigneeId", entity: "user" }),
  }),
  export: defineRoute({
    method: "GET",
    path: "/admin/feedback/export",
    summary: "The same feedback as an Excel workbook (at most 100,000 rows), types and states in the caller's language",
    tags: ["feedback"],
    access: { permission: "feedback.export" },
    query: feedbackListQuery.omit({ current: true, size: true }),
    data: z.string().describe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
    raw: true,
    scope: feedbackScope({ in: "query", field: "userId", entity: "user" }),
    demo: "hidden",
  }),
} as const;
