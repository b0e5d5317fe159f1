import { API, type FeedbackRecord, type feedbackListQuery } from "@ess/contracts";
import { FEEDBACK_STATES, feedbackTransitionAllowed } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import type { Db, Queryable } from "../../db/db.ts";
import { containsPattern, first, run, type Sql, sql } from "../../db/sql.ts";
import { business, notFound } from "../../http/errors.ts";
import { fetchPage, LIST_COUNT_AT_MOST, orderBy } from "../../http/paging.ts";
import { bindRoute } from "../../http/route.ts";
import { writeWorkbook, XLSX_TYPE } from "../../workbooks/workbooks.ts";
import type { AuthContext } from "../auth/auth.context.ts";
import { requirePictures, urlOfKey } from "../media/media.service.ts";
import { type DataScope, dataScope } from "../scope/data-scope.ts";
import { refuseUnseen } from "../scope/unseen.ts";

interface FeedbackRow {
  id: number;
  user_id: number;
  username: string;
  type: number;
  content: string;
  contact: string;
  pictures: number[] | null;
  picture_keys: string[] | null;
  state: number;
  assignee_id: number | null;
  assignee: string | null;
  replies: { id: number; content: string; author: string; createTime: string }[];
  created_at: Date;
  read_at: Date | null;
  handled_at: Date | null;
}

const REPLIES = sql.raw(`COALESCE((SELECT jsonb_agg(jsonb_build_object('id', fr.id, 'content', fr.content, 'author', a.username,
    'createTime', to_char(fr.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) ORDER BY fr.id)
  FROM feedback_reply fr JOIN sys_user a ON a.id = fr.author_id WHERE fr.feedback_id = f.id), '[]'::jsonb) AS replies`);
const PICTURE_KEYS = sql.raw(`(SELECT jsonb_agg(mp.key ORDER BY array_position(f.pictures, mp.id)) FROM media mp
  WHERE mp.id = ANY(f.pictures)) AS picture_keys`);
const SELECT = sql`f.id, f.user_id, u.username, f.type, f.content, f.contact, to_jsonb(f.pictures) AS pictures, ${PICTURE_KEYS}, f.state,
  f.assignee_id, s.username AS assignee, f.created_at, f.read_at, f.handled_at, ${REPLIES}`;
const FROM = sql.raw("feedback f JOIN sys_user u ON u.id = f.user_id LEFT JOIN sys_user s ON s.id = f.assignee_id");
const SORT = { id: "f.id", createTime: "f.created_at", state: "f.state", type: "f.type" };
const EXPORT_LIMIT = 100_000;

const iso = (d: Date | null) => d?.toISOString() ?? null;
const toRecord = (r: FeedbackRow): FeedbackRecord => ({
  id: r.id,
  userId: r.user_id,
  username: r.username,
  type: r.type,
  content: r.content,
  contact: r.contact,
  pictures: r.pictures,
  pictureUrls: (r.picture_keys ?? []).map((key) => urlOfKey(key) as string),
  state: r.state,
  assigneeId: r.assignee_id,
  assignee: r.assignee,
  replies: r.replies,
  createTime: r.created_at.toISOString(),
  readTime: iso(r.read_at),
  handledTime: iso(r.handled_at),
});
const toOwn = (r: FeedbackRow) => ({
  id: r.id,
  type: r.type,
  content: r.content,
  contact: r.contact,
  pictures: r.pictures,
  pictureUrls: (r.picture_keys ?? []).map((key) => urlOfKey(key) as string),
  state: r.state,
  replies: r.replies,
  createTime: r.created_at.toISOString(),
});

const find = async (db: Queryable, scope: DataScope, id: number) => {
  const row = await first<FeedbackRow>(db, sql`SELECT ${SELECT} FROM ${FROM} WHERE f.id = ${id} AND ${scope.feedback("f")}`);
  if (!row) throw notFound();
  return row;
};

type ListQuery = Omit<z.output<typeof feedbackListQuery>, "current" | "size">;
function filters(scope: DataScope, q: ListQuery): Sql {
  return sql.and([
    scope.feedback("f"),
    q.state !== undefined && sql`f.state = ${q.state}`,
    q.type !== undefined && sql`f.type = ${q.type}`,
    q.userId !== undefined && sql`f.user_id = ${q.userId}`,
    q.username !== undefined && sql`u.username ILIKE ${containsPattern(q.username)}`,
    q.beginTime !== undefined && sql`f.created_at >= ${q.beginTime}`,
    q.endTime !== undefined && sql`f.created_at <= ${q.endTime}`,
  ]);
}

/** Staff may assign feedback to a console account they see (back office or channel staff). */
async function refuseAssignee(db: Queryable, scope: DataScope, assigneeId: number | null) {
  if (assigneeId === null) return;
  await refuseUnseen(db, scope, { users: [assigneeId] });
  const staff = await first<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM sys_user WHERE id = ${assigneeId} AND user_type IN (0, 1)`,
  );
  if (staff?.n !== 1) throw business("feedback:assigneeNotStaff");
}

/** End users' feedback: submitted and read back through the app API, answered by staff in scope. */
export function registerFeedbackRoutes(app: FastifyInstance, deps: { db: Db }) {
  const { db } = deps;

  bindRoute(app, API.feedback.page, async ({ auth, input }) => {
    const scope = dataScope(auth);
    await refuseUnseen(db, scope, { users: [input.query.userId] });
    return fetchPage<FeedbackRow, FeedbackRecord>(
      db,
      {
        select: SELECT,
        from: FROM,
        where: filters(scope, input.query),
        order: orderBy(input.query, SORT, "f.created_at"),
        countAtMost: LIST_COUNT_AT_MOST,
      },
      input.query,
      toRecord,
    );
  });

  // Opening an item is what reads it: one still to be read becomes read.
  bindRoute(app, API.feedback.open, async ({ auth, input }) => {
    const scope = dataScope(auth);
    const row = await find(db, scope, input.body.id);
    if (row.state === FEEDBACK_STATES.unread) {
      await run(
        db,
        sql`UPDATE feedback SET state = ${FEEDBACK_STATES.read}, read_at = now() WHERE id = ${row.id} AND state = ${FEEDBACK_STATES.unread}`,
      );
      return toRecord(await find(db, scope, row.id));
    }
    return toRecord(row);
  });

  bindRoute(app, API.feedback.handle, async ({ auth, input }) => {
    const scope = dataScope(auth);
    const b = input.body;
    const row = await find(db, scope, b.id);
    if (!feedbackTransitionAllowed(row.state, b.state)) throw business("feedback:backwards");
    await refuseAssignee(db, scope, b.assigneeId ?? null);
    const assignee = b.assigneeId === undefined ? sql`assignee_id` : sql`${b.assigneeId}::bigint`;
    await db.transaction(async (tx) => {
      const { rowCount } = await run(
        tx,
        sql`UPDATE feedback SET state = ${b.state}, assignee_id = ${assignee},
                   read_at = COALESCE(read_at, now()),
                   handled_at = CASE WHEN ${b.state}::int = ${FEEDBACK_STATES.handled} THEN COALESCE(handled_at, now()) ELSE handled_at END
             WHERE id = ${row.id} AND state <= ${b.state}`,
      );
      // Another staff member moved it further meanwhile.
      if (rowCount === 0) throw business("feedback:backwards");
      if (b.reply !== "")
        await run(
          tx,
          sql`INSERT INTO feedback_reply (feedback_id, author_id, content) VALUES (${row.id}, ${auth.userId}, ${b.reply})`,
        );
    });
    return toRecord(await find(db, scope, row.id));
  });

  bindRoute(app, API.feedback.export, async ({ auth, input, reply, request }) => {
    const scope = dataScope(auth);
    await refuseUnseen(db, scope, { users: [input.query.userId] });
    const { rows } = await run<FeedbackRow>(
      db,
      sql`SELECT ${SELECT} FROM ${FROM} WHERE ${filters(scope, input.query)}
          ${orderBy(input.query, SORT, "f.created_at")} LIMIT ${EXPORT_LIMIT}`,
    );
    const t = request.t;
    const columns = ["id", "username", "type", "content", "contact", "state", "assignee", "replies", "createTime", "handledTime"];
    const file = await writeWorkbook(
      t("feedback:exportSheet"),
      columns.map((c) => t(`feedback:columns.${c}`)),
      rows.map((r) => [
        r.id,
        r.username,
        t(`feedback:types.${r.type}`),
        r.content,
        r.contact,
        t(`feedback:states.${r.state}`),
        r.assignee ?? "",
        r.replies.map((x) => x.content).join("\n"),
        r.created_at.toISOString(),
        r.handled_at?.toISOString() ?? "",
      ]),
    );
    reply.type(XLSX_TYPE).header("content-disposition", 'attachment; filename="feedback.xlsx"').send(file);
    return "";
  });

  const own = (caller: AuthContext) => sql`f.user_id = ${caller.userId} AND f.tenant_id = ${caller.tenantId}`;

  bindRoute(app, API.appFeedback.submit, async ({ auth, input }) => {
    const b = input.body;
    // Pictures the submitter uploaded through /app/media/upload, nobody else's.
    if (b.pictures?.length)
      await requirePictures(db, auth.tenantId, b.pictures, {
        field: "pictures",
        label: "fields:pictures",
        uploadedBy: auth.userId,
      });
    const row = await first<{ id: number }>(
      db,
      sql`INSERT INTO feedback (tenant_id, user_id, type, content, contact, pictures)
          VALUES (${auth.tenantId}, ${auth.userId}, ${b.type}, ${b.content}, ${b.contact}, ${b.pictures}::bigint[]) RETURNING id`,
    );
    const created = await first<FeedbackRow>(db, sql`SELECT ${SELECT} FROM ${FROM} WHERE f.id = ${row?.id} AND ${own(auth)}`);
    return toOwn(created as FeedbackRow);
  });

  bindRoute(app, API.appFeedback.page, async ({ auth, input }) =>
    fetchPage<FeedbackRow, ReturnType<typeof toOwn>>(
      db,
      {
        select: SELECT,
        from: FROM,
        where: own(auth),
        order: sql.raw("ORDER BY f.created_at DESC, f.id DESC"),
        countAtMost: LIST_COUNT_AT_MOST,
      },
      input.query,
      toOwn,
    ),
  );
}
