import { API, type BannerRecord, type bannerInput } from "@ess/contracts";
import { CONTENT_STATE, TERMINAL } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import type { Db, Queryable } from "../../db/db.ts";
import { containsPattern, first, run, sql } from "../../db/sql.ts";
import { notFound, ValidationError } from "../../http/errors.ts";
import { fetchPage, LIST_COUNT_AT_MOST, orderBy } from "../../http/paging.ts";
import { bindRoute } from "../../http/route.ts";
import { type MediaRow, mediaByIds, toMedia } from "../media/media.service.ts";

interface Row {
  id: number;
  kind: number;
  title: string;
  language: string;
  terminal: number;
  link: string | null;
  sort: number;
  state: number;
  created_at: Date;
  updated_at: Date;
  image: MediaRow;
}

const SELECT = sql.raw(`b.id, b.kind, b.title, b.language, b.terminal, b.link, b.sort, b.state, b.created_at, b.updated_at,
  json_build_object('id', m.id, 'key', m.key, 'kind', m.kind, 'sha256', m.sha256, 'content_type', m.content_type, 'name', m.name,
    'size', m.size, 'width', m.width, 'height', m.height, 'thumb_sha256', m.thumb_sha256, 'thumb_type', m.thumb_type) AS image`);
const FROM = sql.raw("content_banner b JOIN media m ON m.id = b.image_id");

const toBanner = (r: Row): BannerRecord => ({
  id: r.id,
  kind: r.kind,
  title: r.title,
  language: r.language,
  terminal: r.terminal,
  image: toMedia(r.image),
  link: r.link,
  sort: r.sort,
  state: r.state,
  createTime: r.created_at.toISOString(),
  updateTime: r.updated_at.toISOString(),
});

const findBanner = (db: Queryable, tenantId: number, id: number) =>
  first<Row>(db, sql`SELECT ${SELECT} FROM ${FROM} WHERE b.id = ${id} AND b.tenant_id = ${tenantId} AND b.deleted_at IS NULL`);

/** Banners of the app's home and guide pages of its first start: staff CRUD and the app's list. */
export function registerBannerRoutes(app: FastifyInstance, deps: { db: Db }) {
  const { db } = deps;

  /** The picture must be one of the tenant's pictures. */
  const checkImage = async (tenantId: number, b: z.output<typeof bannerInput>) => {
    if ((await mediaByIds(db, tenantId, [b.imageId])).get(b.imageId)?.kind !== "image")
      throw new ValidationError([
        { field: "imageId", key: "content:pictureNotFound", values: { field: "imageId" }, label: "fields:bannerImage" },
      ]);
  };

  bindRoute(app, API.banner.page, async ({ input, auth }) => {
    const q = input.query;
    return fetchPage(
      db,
      {
        select: SELECT,
        from: FROM,
        where: sql.and([
          sql`b.tenant_id = ${auth.tenantId} AND b.deleted_at IS NULL`,
          q.kind !== undefined && sql`b.kind = ${q.kind}`,
          q.title !== undefined && sql`b.title ILIKE ${containsPattern(q.title)}`,
          q.state !== undefined && sql`b.state = ${q.state}`,
          q.language !== undefined && sql`b.language = ${q.language}`,
        ]),
        order: orderBy(q, { id: "b.id", sort: "b.sort", updateTime: "b.updated_at" }, "b.id"),
        countAtMost: LIST_COUNT_AT_MOST,
      },
      q,
      toBanner,
    );
  });

  bindRoute(app, API.banner.save, async ({ input, auth }) => {
    const b = input.body;
    await checkImage(auth.tenantId, b);
    const created = await first<{ id: number }>(
      db,
      sql`INSERT INTO content_banner (tenant_id, kind, title, language, terminal, image_id, link, sort, state, created_by)
          VALUES (${auth.tenantId}, ${b.kind}, ${b.title}, ${b.language}, ${b.terminal}, ${b.imageId}, ${b.link}, ${b.sort},
                  ${b.state}, ${auth.userId})
          RETURNING id`,
    );
    return toBanner((await findBanner(db, auth.tenantId, created?.id as number)) as Row);
  });

  bindRoute(app, API.banner.edit, async ({ input, auth }) => {
    const b = input.body;
    await checkImage(auth.tenantId, b);
    const changed = await first(
      db,
      sql`UPDATE content_banner SET kind = ${b.kind}, title = ${b.title}, language = ${b.language}, terminal = ${b.terminal},
                 image_id = ${b.imageId}, link = ${b.link}, sort = ${b.sort}, state = ${b.state}, updated_at = now()
           WHERE id = ${b.id} AND tenant_id = ${auth.tenantId} AND deleted_at IS NULL RETURNING id`,
    );
    if (!changed) throw notFound();
    return toBanner((await findBanner(db, auth.tenantId, b.id)) as Row);
  });

  bindRoute(app, API.banner.del, async ({ input, auth }) => {
    const gone = await first(
      db,
      sql`UPDATE content_banner SET deleted_at = now() WHERE id = ${input.body.id} AND tenant_id = ${auth.tenantId}
            AND deleted_at IS NULL RETURNING id`,
    );
    if (!gone) throw notFound();
    return null;
  });

  bindRoute(app, API.appContent.banners, async ({ input, auth }) => {
    const q = input.query;
    const { rows } = await run<Row>(
      db,
      sql`SELECT ${SELECT} FROM ${FROM}
           WHERE ${sql.and([
             sql`b.tenant_id = ${auth.tenantId} AND b.deleted_at IS NULL AND b.state = ${CONTENT_STATE.published}`,
             sql`b.kind = ${q.kind} AND b.terminal IN (${q.terminal}, ${TERMINAL.both})`,
             q.language !== undefined && sql`b.language = ${q.language}`,
           ])}
           ORDER BY b.sort, b.id LIMIT 50`,
    );
    return rows.map(toBanner);
  });
}
