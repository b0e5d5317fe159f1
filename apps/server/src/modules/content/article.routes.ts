import { API, type ArticleAttachment, type ArticleRecord, type ArticleSummary, type articleInput } from "@ess/contracts";
import { CONTENT_STATE, TERMINAL } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import type { Db, Queryable } from "../../db/db.ts";
import { containsPattern, first, type Sql, sql } from "../../db/sql.ts";
import { notFound, ValidationError } from "../../http/errors.ts";
import { fetchPage, LIST_COUNT_AT_MOST, orderBy } from "../../http/paging.ts";
import { bindRoute } from "../../http/route.ts";
import { type MediaRow, mediaByIds, mediaUrl, toMedia } from "../media/media.service.ts";
import { richTextIsEmpty, sanitizeRichText } from "./rich-text.ts";

type ArticleInput = z.output<typeof articleInput>;
interface StoredAttachment {
  name: string;
  mediaId: number | null;
  url: string | null;
}
interface Row {
  id: number;
  tenant_id: number;
  title: string;
  type: number;
  language: string;
  terminal: number;
  sketch: string;
  content?: string;
  attachments?: StoredAttachment[];
  sort: number;
  state: number;
  publish_time: Date | null;
  created_at: Date;
  updated_at: Date;
  cover: MediaRow | null;
}

const SUMMARY_COLUMNS = `a.id, a.tenant_id, a.title, a.type, a.language, a.terminal, a.sketch, a.sort, a.state,
  a.publish_time, a.created_at, a.updated_at,
  CASE WHEN c.id IS NULL THEN NULL ELSE json_build_object('id', c.id, 'key', c.key, 'kind', c.kind, 'sha256', c.sha256,
    'content_type', c.content_type, 'name', c.name, 'size', c.size, 'width', c.width, 'height', c.height,
    'thumb_sha256', c.thumb_sha256, 'thumb_type', c.thumb_type) END AS cover`;
const SUMMARY_SELECT = sql.raw(SUMMARY_COLUMNS);
const RECORD_SELECT = sql.raw(`${SUMMARY_COLUMNS}, a.content, a.attachments`);
const FROM = sql.raw("content_article a LEFT JOIN media c ON c.id = a.cover_id");

const toSummary = (r: Row): ArticleSummary => ({
  id: r.id,
  title: r.title,
  type: r.type,
  language: r.language,
  terminal: r.terminal,
  sketch: r.sketch,
  cover: r.cover ? toMedia({ ...r.cover, id: Number(r.cover.id), size: Number(r.cover.size) }) : null,
  sort: r.sort,
  state: r.state,
  publishTime: r.publish_time?.toISOString() ?? null,
  createTime: r.created_at.toISOString(),
  updateTime: r.updated_at.toISOString(),
});

async function toRecord(db: Queryable, r: Row): Promise<ArticleRecord> {
  const stored = r.attachments ?? [];
  const media = await mediaByIds(
    db,
    r.tenant_id,
    stored.flatMap((a) => (a.mediaId === null ? [] : [a.mediaId])),
  );
  const attachments = stored.flatMap((a): ArticleAttachment[] => {
    if (a.mediaId === null) return [{ name: a.name, mediaId: null, url: a.url ?? "", contentType: null, size: null }];
    const m = media.get(a.mediaId);
    return m ? [{ name: a.name, mediaId: m.id, url: mediaUrl(m.key), contentType: m.content_type, size: m.size }] : [];
  });
  return { ...toSummary(r), content: r.content ?? "", attachments };
}

async function findArticle(db: Queryable, tenantId: number, id: number, published: Sql | false = false) {
  return first<Row>(
    db,
    sql`SELECT ${RECORD_SELECT} FROM ${FROM}
         WHERE a.id = ${id} AND a.tenant_id = ${tenantId} AND a.deleted_at IS NULL ${published ? sql`AND ${published}` : sql``}`,
  );
}

/** What the app sees: published, and due. */
const PUBLISHED = sql`a.state = ${CONTENT_STATE.published} AND (a.publish_time IS NULL OR a.publish_time <= now())`;

/**
 * News and data-center documents: the staff's tenant-wide list and form (rich text sanitised on
 * the way in, cover and attachments checked to be the tenant's media) and the app's read side.
 */
export function registerArticleRoutes(app: FastifyInstance, deps: { db: Db }) {
  const { db } = deps;

  /** The body's rich text sanitised, its media checked; the values to store. */
  const prepare = async (tenantId: number, b: ArticleInput) => {
    const content = sanitizeRichText(b.content);
    const problems = [];
    if (richTextIsEmpty(content))
      problems.push({
        field: "content",
        key: "validation:required",
        values: { field: "content" },
        label: "fields:articleContent",
      });
    const ids = [
      ...(b.coverId === null ? [] : [b.coverId]),
      ...b.attachments.flatMap((a) => (a.mediaId === null ? [] : [a.mediaId])),
    ];
    const media = await mediaByIds(db, tenantId, ids);
    if (b.coverId !== null && media.get(b.coverId)?.kind !== "image")
      problems.push({ field: "coverId", key: "content:coverNotFound", values: { field: "coverId" }, label: "fields:cover" });
    b.attachments.forEach((a, i) => {
      if (a.mediaId !== null && !media.has(a.mediaId))
        problems.push({
          field: `attachments.${i}.mediaId`,
          key: "content:attachmentNotFound",
          values: { field: `attachments.${i}.mediaId`, name: a.name },
          label: "fields:attachment",
        });
    });
    if (problems.length > 0) throw new ValidationError(problems);
    const attachments: StoredAttachment[] = b.attachments.map((a) => ({ name: a.name, mediaId: a.mediaId, url: a.url }));
    return { content, attachments: JSON.stringify(attachments), publishTime: b.publishTime ?? null };
  };

  bindRoute(app, API.article.page, async ({ input, auth }) => {
    const q = input.query;
    return fetchPage(
      db,
      {
        select: SUMMARY_SELECT,
        from: FROM,
        where: sql.and([
          sql`a.tenant_id = ${auth.tenantId} AND a.deleted_at IS NULL`,
          q.title !== undefined && sql`a.title ILIKE ${containsPattern(q.title)}`,
          q.type !== undefined && sql`a.type = ${q.type}`,
          q.state !== undefined && sql`a.state = ${q.state}`,
          q.language !== undefined && sql`a.language = ${q.language}`,
        ]),
        order: orderBy(
          q,
          { id: "a.id", sort: "a.sort", publishTime: "a.publish_time", createTime: "a.created_at", updateTime: "a.updated_at" },
          "a.id",
        ),
        countAtMost: LIST_COUNT_AT_MOST,
      },
      q,
      toSummary,
    );
  });

  bindRoute(app, API.article.info, async ({ input, auth }) => {
    const row = await findArticle(db, auth.tenantId, input.query.id);
    if (!row) throw notFound();
    return toRecord(db, row);
  });

  bindRoute(app, API.article.save, async ({ input, auth }) => {
    const b = input.body;
    const v = await prepare(auth.tenantId, b);
    const created = await first<{ id: number }>(
      db,
      sql`INSERT INTO content_article (tenant_id, title, type, language, terminal, sketch, cover_id, content, attachments,
                                       sort, state, publish_time, created_by)
          VALUES (${auth.tenantId}, ${b.title}, ${b.type}, ${b.language}, ${b.terminal}, ${b.sketch}, ${b.coverId}, ${v.content},
                  ${v.attachments}::jsonb, ${b.sort}, ${b.state},
                  COALESCE(${v.publishTime}::timestamptz, CASE WHEN ${b.state}::int = 1 THEN now() END), ${auth.userId})
          RETURNING id`,
    );
    return toRecord(db, (await findArticle(db, auth.tenantId, created?.id as number)) as Row);
  });

  bindRoute(app, API.article.edit, async ({ input, auth }) => {
    const b = input.body;
    const v = await prepare(auth.tenantId, b);
    const changed = await first<{ id: number }>(
      db,
      sql`UPDATE content_article SET title = ${b.title}, type = ${b.type}, language = ${b.language}, terminal = ${b.terminal},
                 sketch = ${b.sketch}, cover_id = ${b.coverId}, content = ${v.content}, attachments = ${v.attachments}::jsonb,
                 sort = ${b.sort}, state = ${b.state},
                 publish_time = COALESCE(${v.publishTime}::timestamptz,
                                         CASE WHEN ${b.state}::int = 1 THEN COALESCE(publish_time, now()) END),
                 updated_at = now()
           WHERE id = ${b.id} AND tenant_id = ${auth.tenantId} AND deleted_at IS NULL RETURNING id`,
    );
    if (!changed) throw notFound();
    return toRecord(db, (await findArticle(db, auth.tenantId, b.id)) as Row);
  });

  bindRoute(app, API.article.del, async ({ input, auth }) => {
    const gone = await first(
      db,
      sql`UPDATE content_article SET deleted_at = now() WHERE id = ${input.body.id} AND tenant_id = ${auth.tenantId}
            AND deleted_at IS NULL RETURNING id`,
    );
    if (!gone) throw notFound();
    return null;
  });

  bindRoute(app, API.appContent.articles, async ({ input, auth }) => {
    const q = input.query;
    return fetchPage(
      db,
      {
        select: SUMMARY_SELECT,
        from: FROM,
        where: sql.and([
          sql`a.tenant_id = ${auth.tenantId} AND a.deleted_at IS NULL AND ${PUBLISHED}`,
          sql`a.terminal IN (${q.terminal}, ${TERMINAL.both})`,
          q.language !== undefined && sql`a.language = ${q.language}`,
          q.type !== undefined && sql`a.type = ${q.type}`,
        ]),
        // Published articles always carry their publication time (set when first published).
        order: sql.raw("ORDER BY a.publish_time DESC, a.id DESC"),
        countAtMost: LIST_COUNT_AT_MOST,
      },
      q,
      toSummary,
    );
  });

  bindRoute(app, API.appContent.article, async ({ input, auth }) => {
    const row = await findArticle(db, auth.tenantId, input.query.id, PUBLISHED);
    if (!row) throw notFound();
    return toRecord(db, row);
  });
}
