import { BANNER_KINDS, CONTENT_STATES, CONTENT_TERMINALS, DOCUMENT_TYPES, LOCALES, MEDIA_KINDS, TERMINAL } from "@ess/domain";
import { z } from "zod";
import { instant } from "../account-fields.ts";
import { pageOf, pageQuery } from "../envelope.ts";
import { blankToUndefined, idBody, idQuery, listQuery, smallIntFilter, textFilter } from "../list.ts";
import { defineRoute } from "../route.ts";
import { id, instantInput, plain, text } from "../text.ts";

const tenantScope = { entity: "tenant" } as const;
const oneOf = (values: readonly number[]) =>
  z
    .number()
    .int()
    .min(Math.min(...values))
    .max(Math.max(...values));

/** A stored picture or attachment as the console and the app see it. */
export const mediaRecord = z.object({
  id: z.number().int(),
  kind: z.enum(MEDIA_KINDS),
  name: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  /** Where its bytes are served (anyone holding the link may read it). */
  url: z.string(),
  /** A 320 px wide copy of a picture (null for attachments). */
  thumbnailUrl: z.string().nullable(),
});
export type MediaRecord = z.infer<typeof mediaRecord>;

const mediaKey = text()
  .regex(/^[0-9a-f]{32}$/, "validation:invalid")
  .meta({ label: "fields:mediaKey" });

/** Media store: uploads (the request body is the file) and the files themselves. */
export const mediaRoutes = {
  upload: defineRoute({
    method: "POST",
    path: "/admin/media/upload",
    summary:
      "Upload a picture or an attachment (the request body is the file; fileName and kind in the query); its type is sniffed from its bytes, its size limited per kind, pictures get a thumbnail",
    tags: ["content"],
    access: { permission: "media.upload" },
    scope: tenantScope,
    query: z.object({
      fileName: text().trim().min(1).max(200).meta({ label: "fields:fileName" }),
      kind: z.enum(MEDIA_KINDS).meta({ label: "fields:mediaKind" }),
    }),
    data: mediaRecord,
  }),
  /** The app's side: a signed-in user's own picture (an avatar, a picture of their feedback). */
  appUpload: defineRoute({
    method: "POST",
    path: "/app/media/upload",
    summary:
      "Upload a picture of one's own (the request body is the file; fileName in the query): sniffed from its bytes, at most 5 MB, thumbnailed; usable only by its uploader",
    tags: ["app"],
    access: { signedIn: true },
    scope: { entity: "self" },
    query: z.object({ fileName: text().trim().min(1).max(200).meta({ label: "fields:fileName" }) }),
    data: mediaRecord,
  }),
  file: defineRoute({
    method: "GET",
    path: "/media/file/:key",
    summary:
      "The bytes of a stored medium (public to whoever holds its unguessable link, so pictures show in <img>): its content type, inline for pictures, attachment with its name otherwise, nosniff",
    tags: ["content"],
    access: { public: true },
    params: z.object({ key: mediaKey }),
    data: z.unknown(),
    raw: true,
  }),
  thumbnail: defineRoute({
    method: "GET",
    path: "/media/thumb/:key",
    summary: "The thumbnail of a stored picture (320 px wide, same content type rules)",
    tags: ["content"],
    access: { public: true },
    params: z.object({ key: mediaKey }),
    data: z.unknown(),
    raw: true,
  }),
} as const;

/** An attachment of an article: an uploaded file or a link, with the name shown. */
export const attachmentInput = z
  .object({
    name: text().trim().min(1).max(200).meta({ label: "fields:attachmentName" }),
    mediaId: id().nullable().default(null).meta({ label: "fields:attachment" }),
    url: z
      .preprocess(
        (v) => (v === "" ? null : v),
        plain(z.url({ protocol: /^https?$/ }))
          .max(1000)
          .nullable()
          .default(null),
      )
      .meta({ label: "fields:link" }),
  })
  .superRefine((a, ctx) => {
    if ((a.mediaId === null) === (a.url === null))
      ctx.addIssue({ code: "custom", path: ["url"], message: "content:attachmentFileOrLink" });
  });

export const attachmentRecord = z.object({
  name: z.string(),
  mediaId: z.number().int().nullable(),
  url: z.string(),
  contentType: z.string().nullable(),
  size: z.number().int().nullable(),
});
export type ArticleAttachment = z.infer<typeof attachmentRecord>;

/** News and data-center documents (spec §5: title, type and content required). */
export const articleInput = z.object({
  title: text().trim().min(1).max(200),
  type: oneOf(DOCUMENT_TYPES).meta({ label: "fields:type" }),
  language: z.enum(LOCALES).meta({ label: "fields:language" }),
  terminal: oneOf(CONTENT_TERMINALS).default(TERMINAL.both).meta({ label: "fields:terminal" }),
  sketch: text().trim().max(500).default("").meta({ label: "fields:sketch" }),
  coverId: id().nullable().default(null).meta({ label: "fields:cover" }),
  content: text().min(1).max(200_000).meta({ label: "fields:articleContent" }),
  attachments: z.array(attachmentInput).max(20).default([]).meta({ label: "fields:attachments" }),
  sort: z.number().int().min(0).max(9999).default(0),
  state: oneOf(CONTENT_STATES).default(0),
  publishTime: z
    .preprocess((v) => (v === null || v === "" ? undefined : v), instantInput().optional())
    .meta({ label: "fields:publishTime" }),
});

export const articleSummary = z.object({
  id: z.number().int(),
  title: z.string(),
  type: z.number().int(),
  language: z.string(),
  terminal: z.number().int(),
  sketch: z.string(),
  cover: mediaRecord.nullable(),
  sort: z.number().int(),
  state: z.number().int(),
  publishTime: instant.nullable(),
  createTime: instant,
  updateTime: instant,
});
export const articleRecord = articleSummary.extend({
  content: z.string(),
  attachments: z.array(attachmentRecord),
});
export type ArticleSummary = z.infer<typeof articleSummary>;
export type ArticleRecord = z.infer<typeof articleRecord>;

const ARTICLE_SORT = ["id", "sort", "publishTime", "createTime", "updateTime"] as const;
const languageFilter = z.preprocess(blankToUndefined, z.enum(LOCALES).optional()).meta({ label: "fields:language" });

/** Staff side: news and data-center documents of the tenant. */
export const articleRoutes = {
  page: defineRoute({
    method: "GET",
    path: "/admin/lsydatacenter/page",
    summary: "News and data-center documents, paged (filter by title, type, state, language)",
    tags: ["content"],
    access: { permission: "content.article.view" },
    scope: tenantScope,
    query: listQuery(ARTICLE_SORT, {
      title: textFilter,
      type: smallIntFilter.meta({ label: "fields:type" }),
      state: smallIntFilter,
      language: languageFilter,
    }),
    data: pageOf(articleSummary),
  }),
  info: defineRoute({
    method: "GET",
    path: "/admin/lsydatacenter/info",
    summary: "One article with its content and attachments",
    tags: ["content"],
    access: { permission: "content.article.view" },
    scope: tenantScope,
    query: idQuery,
    data: articleRecord,
  }),
  save: defineRoute({
    method: "POST",
    path: "/admin/lsydatacenter/save",
    summary: "Add an article (its rich text is sanitised)",
    tags: ["content"],
    access: { permission: "content.article.edit" },
    scope: tenantScope,
    body: articleInput,
    data: articleRecord,
  }),
  edit: defineRoute({
    method: "POST",
    path: "/admin/lsydatacenter/edit",
    summary: "Change an article (its rich text is sanitised)",
    tags: ["content"],
    access: { permission: "content.article.edit" },
    scope: tenantScope,
    body: articleInput.extend({ id: id() }),
    data: articleRecord,
  }),
  del: defineRoute({
    method: "POST",
    path: "/admin/lsydatacenter/del",
    summary: "Delete an article",
    tags: ["content"],
    access: { permission: "content.article.edit" },
    scope: tenantScope,
    body: idBody,
    data: z.null(),
  }),
} as const;

/** A banner of the app's home or a guide page of its first start. */
export const bannerInput = z.object({
  kind: oneOf(BANNER_KINDS).meta({ label: "fields:bannerKind" }),
  title: text().trim().min(1).max(100),
  language: z.enum(LOCALES).meta({ label: "fields:language" }),
  terminal: oneOf(CONTENT_TERMINALS).default(TERMINAL.both).meta({ label: "fields:terminal" }),
  imageId: id().meta({ label: "fields:bannerImage" }),
  link: z
    .preprocess(
      (v) => (v === "" ? null : v),
      plain(z.url({ protocol: /^https?$/ }))
        .max(1000)
        .nullable()
        .default(null),
    )
    .meta({ label: "fields:link" }),
  sort: z.number().int().min(0).max(9999).default(0),
  state: oneOf(CONTENT_STATES).default(0),
});
export const bannerRecord = z.object({
  id: z.number().int(),
  kind: z.number().int(),
  title: z.string(),
  language: z.string(),
  terminal: z.number().int(),
  image: mediaRecord,
  link: z.string().nullable(),
  sort: z.number().int(),
  state: z.number().int(),
  createTime: instant,
  updateTime: instant,
});
export type BannerRecord = z.infer<typeof bannerRecord>;

const BANNER_SORT = ["id", "sort", "updateTime"] as const;

/** Staff side: banners and guide pages of the tenant (original: /admin/banner/*, /admin/guide/page/*). */
export const bannerRoutes = {
  page: defineRoute({
    method: "GET",
    path: "/admin/banner/page",
    summary: "Banners and guide pages, paged (filter by kind, title, state, language)",
    tags: ["content"],
    access: { permission: "content.banner.view" },
    scope: tenantScope,
    query: listQuery(BANNER_SORT, {
      kind: smallIntFilter.meta({ label: "fields:bannerKind" }),
      title: textFilter,
      state: smallIntFilter,
      language: languageFilter,
    }),
    data: pageOf(bannerRecord),
  }),
  save: defineRoute({
    method: "POST",
    path: "/admin/banner/save",
    summary: "Add a banner or guide page",
    tags: ["content"],
    access: { permission: "content.banner.edit" },
    scope: tenantScope,
    body: bannerInput,
    data: bannerRecord,
  }),
  edit: defineRoute({
    method: "POST",
    path: "/admin/banner/edit",
    summary: "Change a banner or guide page",
    tags: ["content"],
    access: { permission: "content.banner.edit" },
    scope: tenantScope,
    body: bannerInput.extend({ id: id() }),
    data: bannerRecord,
  }),
  del: defineRoute({
    method: "POST",
    path: "/admin/banner/del",
    summary: "Delete a banner or guide page",
    tags: ["content"],
    access: { permission: "content.banner.edit" },
    scope: tenantScope,
    body: idBody,
    data: z.null(),
  }),
} as const;

/** End users' app: published content of the caller's tenant, in its language. */
export const appContentRoutes = {
  articles: defineRoute({
    method: "GET",
    path: "/app/content/article/page",
    summary: "Published news and documents for the app, by language, terminal and type, paged (newest first)",
    tags: ["app"],
    access: { signedIn: true },
    scope: tenantScope,
    query: pageQuery.extend({
      language: languageFilter,
      terminal: z
        .preprocess(blankToUndefined, z.coerce.number().int().min(0).max(1).default(TERMINAL.app))
        .meta({ label: "fields:terminal" }),
      type: smallIntFilter.meta({ label: "fields:type" }),
    }),
    data: pageOf(articleSummary),
  }),
  article: defineRoute({
    method: "GET",
    path: "/app/content/article/info",
    summary: "One published article with its content, cover and attachments",
    tags: ["app"],
    access: { signedIn: true },
    scope: tenantScope,
    query: idQuery,
    data: articleRecord,
  }),
  banners: defineRoute({
    method: "GET",
    path: "/app/content/banner/list",
    summary:
      "Published banners (kind 1) or guide pages (kind 2) for the app, by language and terminal, in their order (at most 50)",
    tags: ["app"],
    access: { signedIn: true },
    scope: tenantScope,
    query: z.object({
      kind: z.coerce.number().int().min(1).max(2).meta({ label: "fields:bannerKind" }),
      language: languageFilter,
      terminal: z
        .preprocess(blankToUndefined, z.coerce.number().int().min(0).max(1).default(TERMINAL.app))
        .meta({ label: "fields:terminal" }),
    }),
    data: z.array(bannerRecord),
  }),
} as const;
