import { FEEDBACK_PICTURES_MAX, MESSAGE_AUDIENCES, MESSAGE_TERMINALS } from "@ess/domain";
import { z } from "zod";
import { instant } from "../account-fields.ts";
import { pageOf, pageQuery } from "../envelope.ts";
import { blankToUndefined, idBody, idQuery, listQuery, smallIntFilter, textFilter, timeFilter } from "../list.ts";
import { defineRoute } from "../route.ts";
import { id, text } from "../text.ts";

/** How many accounts one message may name (audience "users"). */
export const MESSAGE_USERS_MAX = 500;

/**
 * The message form (spec §3 Message, §5: title, content and summary required). `content` is plain
 * sanitised by the server as rich text; `cover` is a picture of the media store (optional).
 */
export const messageInput = z
  .object({
    title: text().trim().min(1).max(200),
    summary: text().trim().min(1).max(500).meta({ label: "fields:summary" }),
    content: text().trim().min(1).max(100_000).meta({ label: "fields:messageContent" }),
    description: text().trim().max(500).default(""),
    cover: id().nullable().default(null).meta({ label: "fields:cover" }),
    terminal: z.enum(MESSAGE_TERMINALS).meta({ label: "fields:terminal" }),
    audience: z.enum(MESSAGE_AUDIENCES),
    orgId: id().nullable().default(null),
    userIds: z.array(id()).max(MESSAGE_USERS_MAX).default([]).meta({ label: "fields:userIds" }),
  })
  .superRefine((m, ctx) => {
    if (m.audience === "organisation" && m.orgId === null)
      ctx.addIssue({ code: "custom", path: ["orgId"], message: "validation:required" });
    if (m.audience === "users" && m.userIds.length === 0)
      ctx.addIssue({ code: "custom", path: ["userIds"], message: "validation:required" });
  });
export type MessageInput = z.input<typeof messageInput>;

export const messageRecord = z.object({
  id: z.number().int(),
  title: z.string(),
  summary: z.string(),
  content: z.string(),
  description: z.string(),
  cover: z.number().int().nullable(),
  /** Where the cover picture is served, or null. */
  coverUrl: z.string().nullable(),
  terminal: z.enum(MESSAGE_TERMINALS),
  audience: z.enum(MESSAGE_AUDIENCES),
  orgId: z.number().int().nullable(),
  orgName: z.string().nullable(),
  userIds: z.array(z.number().int()),
  /** 0 draft, 1 scheduled, 2 published, 3 recalled. */
  state: z.number().int(),
  publishAt: instant.nullable(),
  publishedAt: instant.nullable(),
  recalledAt: instant.nullable(),
  sender: z.string(),
  /** Inbox rows delivered, and how many of them were read. */
  recipients: z.number().int(),
  readCount: z.number().int(),
  createTime: instant,
  updateTime: instant,
});
export type MessageRecord = z.infer<typeof messageRecord>;

/** A message as its recipient's inbox shows it. */
export const inboxItem = z.object({
  id: z.number().int(),
  title: z.string(),
  summary: z.string(),
  content: z.string(),
  description: z.string(),
  cover: z.number().int().nullable(),
  /** Where the cover picture is served, or null. */
  coverUrl: z.string().nullable(),
  terminal: z.enum(MESSAGE_TERMINALS),
  publishedAt: instant,
  read: z.boolean(),
  readAt: instant.nullable(),
});
export type InboxItem = z.infer<typeof inboxItem>;

const inboxPage = pageOf(inboxItem).extend({ unread: z.number().int() });
const inboxQuery = pageQuery.extend({
  unreadOnly: z.preprocess(blankToUndefined, z.enum(["true", "false"]).optional()).meta({ label: "fields:unreadOnly" }),
});
const readBody = z
  .object({ id: id().optional(), all: z.boolean().default(false).meta({ label: "fields:readAll" }) })
  .superRefine((b, ctx) => {
    if (!b.all && b.id === undefined) ctx.addIssue({ code: "custom", path: ["id"], message: "validation:required" });
  });

/** Publication: now (no time, or a time already past) or at a later time. */
export const messagePublish = z.object({ id: id(), publishAt: timeFilter.meta({ label: "fields:publishAt" }) });

export const messageRoutes = {
  page: defineRoute({
    method: "GET",
    path: "/admin/message/page",
    summary: "Messages sent by accounts in the caller's scope, newest first",
    tags: ["messages"],
    access: { permission: "content.message.view" },
    query: listQuery(["id", "createTime", "publishAt", "state"], {
      title: textFilter,
      state: smallIntFilter.meta({ label: "fields:messageState" }),
      terminal: z.preprocess(blankToUndefined, z.enum(MESSAGE_TERMINALS).optional()).meta({ label: "fields:terminal" }),
    }),
    data: pageOf(messageRecord),
    scope: { entity: "message", refs: [] },
  }),
  info: defineRoute({
    method: "GET",
    path: "/admin/message/info",
    summary: "One message",
    tags: ["messages"],
    access: { permission: "content.message.view" },
    query: idQuery,
    data: messageRecord,
    scope: { entity: "message", refs: [{ in: "query", field: "id", entity: "message" }] },
  }),
  save: defineRoute({
    method: "POST",
    path: "/admin/message/save",
    summary: "Write a message (a draft until it is published)",
    tags: ["messages"],
    access: { permission: "content.message.edit" },
    body: messageInput,
    data: messageRecord,
    scope: {
      entity: "message",
      refs: [
        { in: "body", field: "orgId", entity: "organisation" },
        { in: "body", field: "userIds", entity: "user", many: true },
      ],
    },
  }),
  edit: defineRoute({
    method: "POST",
    path: "/admin/message/edit",
    summary: "Change a draft or scheduled message",
    tags: ["messages"],
    access: { permission: "content.message.edit" },
    body: z.intersection(messageInput, z.object({ id: id() })),
    data: messageRecord,
    scope: {
      entity: "message",
      refs: [
        { in: "body", field: "id", entity: "message" },
        { in: "body", field: "orgId", entity: "organisation" },
        { in: "body", field: "userIds", entity: "user", many: true },
      ],
    },
  }),
  publish: defineRoute({
    method: "POST",
    path: "/admin/message/publish",
    summary:
      "Publish a draft now (no time, or a time already past) or schedule it; a scheduled message is published by the server at its time",
    tags: ["messages"],
    access: { permission: "content.message.edit" },
    body: messagePublish,
    data: messageRecord,
    scope: { entity: "message", refs: [{ in: "body", field: "id", entity: "message" }] },
  }),
  recall: defineRoute({
    method: "POST",
    path: "/admin/message/recall",
    summary: "Recall a published or scheduled message: no inbox shows it any more",
    tags: ["messages"],
    access: { permission: "content.message.edit" },
    body: idBody,
    data: messageRecord,
    scope: { entity: "message", refs: [{ in: "body", field: "id", entity: "message" }] },
  }),
  del: defineRoute({
    method: "POST",
    path: "/admin/message/del",
    summary: "Delete a draft or recalled message",
    tags: ["messages"],
    access: { permission: "content.message.edit" },
    body: idBody,
    data: z.null(),
    scope: { entity: "message", refs: [{ in: "body", field: "id", entity: "message" }] },
  }),
} as const;

/** A signed-in user's inbox on one terminal: its page with the unread count, and marking read. */
function inboxPair(where: { shown: string; tag: string; pagePath: string; readPath: string }) {
  return {
    page: defineRoute({
      method: "GET",
      path: where.pagePath,
      summary: `The caller's messages shown in ${where.shown}, newest first, with the unread count`,
      tags: [where.tag],
      access: { signedIn: true },
      query: inboxQuery,
      data: inboxPage,
      scope: { entity: "self" },
    }),
    read: defineRoute({
      method: "POST",
      path: where.readPath,
      summary: `Mark one of the caller's messages shown in ${where.shown} read (or all of them)`,
      tags: [where.tag],
      access: { signedIn: true },
      body: readBody,
      data: z.object({ unread: z.number().int() }),
      scope: { entity: "self" },
    }),
  };
}

/** The signed-in console user's own inbox (messages for the web). */
export const inboxRoutes = inboxPair({
  shown: "the console",
  tag: "messages",
  pagePath: "/admin/message/inbox",
  readPath: "/admin/message/inbox/read",
});

const appInbox = inboxPair({ shown: "the app", tag: "app", pagePath: "/app/message/inbox", readPath: "/app/message/read" });

/** The feedback an end user submits (spec §3 Feedback). */
export const feedbackInput = z.object({
  type: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]).meta({ label: "fields:feedbackType" }),
  content: text().trim().min(1).max(2000).meta({ label: "fields:feedbackContent" }),
  contact: text().trim().max(200).default("").meta({ label: "fields:contactInfo" }),
  pictures: z.array(id()).max(FEEDBACK_PICTURES_MAX).nullable().default(null).meta({ label: "fields:pictures" }),
});

export const feedbackReply = z.object({
  id: z.number().int(),
  content: z.string(),
  author: z.string(),
  createTime: instant,
});

/** What the submitting user sees of its feedback. */
export const ownFeedbackRecord = z.object({
  id: z.number().int(),
  type: z.number().int(),
  content: z.string(),
  contact: z.string(),
  pictures: z.array(z.number().int()).nullable(),
  /** Where the pictures are served, in their order. */
  pictureUrls: z.array(z.string()),
  state: z.number().int(),
  replies: z.array(feedbackReply),
  createTime: instant,
});

/** What the end users' app calls, signed in as the end user: its inbox and its feedback. */
export const appRoutes = {
  inbox: appInbox.page,
  read: appInbox.read,
  feedbackSubmit: defineRoute({
    method: "POST",
    path: "/app/feedback/save",
    summary: "Submit feedback (type 0 download/load, 1 image/chapter, 2 app experience, 3 other)",
    tags: ["app"],
    access: { signedIn: true },
    body: feedbackInput,
    data: ownFeedbackRecord,
    scope: { entity: "self" },
  }),
  feedbackPage: defineRoute({
    method: "GET",
    path: "/app/feedback/page",
    summary: "The caller's own feedback with the staff's replies, newest first",
    tags: ["app"],
    access: { signedIn: true },
    query: pageQuery,
    data: pageOf(ownFeedbackRecord),
    scope: { entity: "self" },
  }),
} as const;
