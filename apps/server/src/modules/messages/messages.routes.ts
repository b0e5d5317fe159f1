import { API, type InboxItem, type MessageRecord } from "@ess/contracts";
import { MESSAGE_STATES, type MessageAudience, type MessageTerminal } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import type { Db, Queryable } from "../../db/db.ts";
import { containsPattern, first, run, sql } from "../../db/sql.ts";
import { business, notFound } from "../../http/errors.ts";
import { fetchPage, LIST_COUNT_AT_MOST, orderBy } from "../../http/paging.ts";
import { bindRoute } from "../../http/route.ts";
import type { AuthContext } from "../auth/auth.context.ts";
import { richTextOrRefuse } from "../content/rich-text.ts";
import { requirePictures, urlOfKey } from "../media/media.service.ts";
import type { RealtimeHub } from "../realtime/realtime-hub.ts";
import { type DataScope, dataScope } from "../scope/data-scope.ts";
import { refuseUnseen } from "../scope/unseen.ts";
import { publishIfDue, remindRecipients } from "./message-publisher.ts";

interface MessageRow {
  id: number;
  title: string;
  summary: string;
  content: string;
  description: string;
  cover: number | null;
  cover_key: string | null;
  terminal: MessageTerminal;
  audience: MessageAudience;
  org_id: number | null;
  org_name: string | null;
  user_ids: number[];
  state: number;
  publish_at: Date | null;
  published_at: Date | null;
  recalled_at: Date | null;
  sender: string;
  recipients: number;
  read_count: number;
  created_at: Date;
  updated_at: Date;
}

const COVER_KEY = "(SELECT mc.key FROM media mc WHERE mc.id = m.cover) AS cover_key";
const SELECT =
  sql.raw(`m.id, m.title, m.summary, m.content, m.description, m.cover, ${COVER_KEY}, m.terminal, m.audience, m.org_id,
  o.name AS org_name, to_jsonb(m.user_ids) AS user_ids, m.state, m.publish_at, m.published_at, m.recalled_at,
  s.username AS sender, m.created_at, m.updated_at,
  (SELECT count(*)::int FROM message_recipient r WHERE r.message_id = m.id) AS recipients,
  (SELECT count(*)::int FROM message_recipient r WHERE r.message_id = m.id AND r.read_at IS NOT NULL) AS read_count`);
const FROM = sql.raw("message m JOIN sys_user s ON s.id = m.created_by LEFT JOIN organisation o ON o.id = m.org_id");
const SORT = { id: "m.id", createTime: "m.created_at", publishAt: "m.publish_at", state: "m.state" };

const iso = (d: Date | null) => d?.toISOString() ?? null;
const toRecord = (r: MessageRow): MessageRecord => ({
  id: r.id,
  title: r.title,
  summary: r.summary,
  content: r.content,
  description: r.description,
  cover: r.cover,
  coverUrl: urlOfKey(r.cover_key),
  terminal: r.terminal,
  audience: r.audience,
  orgId: r.org_id,
  orgName: r.org_name,
  userIds: r.user_ids,
  state: r.state,
  publishAt: iso(r.publish_at),
  publishedAt: iso(r.published_at),
  recalledAt: iso(r.recalled_at),
  sender: r.sender,
  recipients: r.recipients,
  readCount: r.read_count,
  createTime: r.created_at.toISOString(),
  updateTime: r.updated_at.toISOString(),
});

const find = async (db: Queryable, scope: DataScope, id: number) => {
  const row = await first<MessageRow>(db, sql`SELECT ${SELECT} FROM ${FROM} WHERE m.id = ${id} AND ${scope.messages("m")}`);
  if (!row) throw notFound();
  return row;
};

/** A message as its recipient's inbox holds it: published, read or not. */
type InboxRow = Pick<MessageRow, "id" | "title" | "summary" | "content" | "description" | "cover" | "cover_key" | "terminal"> & {
  published_at: Date;
  read_at: Date | null;
};

/** A recipient's inbox on one terminal: published messages only (a recalled one is gone from it). */
function inboxWhere(caller: AuthContext, where: "app" | "web") {
  return sql`r.user_id = ${caller.userId} AND m.state = ${MESSAGE_STATES.published} AND m.tenant_id = ${caller.tenantId}
             AND m.terminal IN ('both', ${where})`;
}

async function unreadCount(db: Queryable, caller: AuthContext, where: "app" | "web") {
  // Counted up to the lists' cap: a badge needs no exact figure past it, and counting every unread
  // message of a large inbox would join all of them on each page.
  const row = await first<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM message_recipient r JOIN message m ON m.id = r.message_id
         WHERE ${inboxWhere(caller, where)} AND r.read_at IS NULL LIMIT ${LIST_COUNT_AT_MOST}) unread`,
  );
  return row?.n ?? 0;
}

async function inboxPage(
  db: Queryable,
  caller: AuthContext,
  where: "app" | "web",
  query: { current: number; size: number; unreadOnly?: "true" | "false" | undefined },
) {
  const condition = sql.and([inboxWhere(caller, where), query.unreadOnly === "true" && sql`r.read_at IS NULL`]);
  const page = await fetchPage<InboxRow, InboxItem>(
    db,
    {
      select: sql.raw(
        `m.id, m.title, m.summary, m.content, m.description, m.cover, ${COVER_KEY}, m.terminal, m.published_at, r.read_at`,
      ),
      from: sql.raw("message_recipient r JOIN message m ON m.id = r.message_id"),
      where: condition,
      // The delivery's copy of the publication time: the order comes from the inbox index.
      order: sql.raw("ORDER BY r.published_at DESC, r.message_id DESC"),
      countAtMost: LIST_COUNT_AT_MOST,
    },
    query,
    (r) => ({
      id: r.id,
      title: r.title,
      summary: r.summary,
      content: r.content,
      description: r.description,
      cover: r.cover,
      coverUrl: urlOfKey(r.cover_key),
      terminal: r.terminal,
      publishedAt: r.published_at.toISOString(),
      read: r.read_at !== null,
      readAt: iso(r.read_at),
    }),
  );
  return { ...page, unread: await unreadCount(db, caller, where) };
}

async function markRead(db: Db, caller: AuthContext, where: "app" | "web", body: { id?: number | undefined; all: boolean }) {
  if (body.all) {
    await run(
      db,
      sql`UPDATE message_recipient r SET read_at = now() FROM message m
           WHERE m.id = r.message_id AND ${inboxWhere(caller, where)} AND r.read_at IS NULL`,
    );
  } else {
    const row = await first<{ read_at: Date | null }>(
      db,
      sql`SELECT r.read_at FROM message_recipient r JOIN message m ON m.id = r.message_id
           WHERE ${inboxWhere(caller, where)} AND r.message_id = ${body.id}`,
    );
    if (!row) throw notFound();
    if (row.read_at === null)
      await run(
        db,
        sql`UPDATE message_recipient SET read_at = now() WHERE message_id = ${body.id} AND user_id = ${caller.userId}`,
      );
  }
  return { unread: await unreadCount(db, caller, where) };
}

/**
 * The audience must lie within the sender's own scope: an organisation it may change (a dealer its
 * own subtree, not the installer companies it only reads) and accounts it sees; anything else is
 * "not found", as reading it would be.
 */
async function refuseForeignAudience(
  db: Queryable,
  scope: DataScope,
  body: { audience: MessageAudience; orgId: number | null; userIds: number[] },
) {
  if (body.orgId !== null) {
    const seen = await first<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM organisation o WHERE o.id = ${body.orgId} AND o.deleted_at IS NULL
           AND o.kind <> 'manufacturer' AND ${scope.organisations("o", true)}`,
    );
    if (seen?.n !== 1) throw notFound();
  }
  await refuseUnseen(db, scope, { users: body.userIds });
}

const audienceOf = (b: { audience: MessageAudience; orgId: number | null; userIds: number[] }) => ({
  orgId: b.audience === "organisation" ? b.orgId : null,
  userIds: b.audience === "users" ? [...new Set(b.userIds)] : [],
});

/** Messages: written by staff, published at once or at a time, recalled; the console's and the app's inboxes. */
export function registerMessageRoutes(app: FastifyInstance, deps: { db: Db; hub: RealtimeHub | null }) {
  const { db } = deps;

  bindRoute(app, API.message.page, async ({ auth, input }) => {
    const q = input.query;
    const where = sql.and([
      dataScope(auth).messages("m"),
      q.title !== undefined && sql`m.title ILIKE ${containsPattern(q.title)}`,
      q.state !== undefined && sql`m.state = ${q.state}`,
      q.terminal !== undefined && sql`m.terminal = ${q.terminal}`,
    ]);
    return fetchPage<MessageRow, MessageRecord>(
      db,
      { select: SELECT, from: FROM, where, order: orderBy(q, SORT, "m.created_at"), countAtMost: LIST_COUNT_AT_MOST },
      q,
      toRecord,
    );
  });

  bindRoute(app, API.message.info, async ({ auth, input }) => toRecord(await find(db, dataScope(auth), input.query.id)));

  bindRoute(app, API.message.save, async ({ auth, input }) => {
    const scope = dataScope(auth);
    const b = input.body;
    await refuseForeignAudience(db, scope, b);
    if (b.cover !== null) await requirePictures(db, auth.tenantId, [b.cover], { field: "cover", label: "fields:cover" });
    const { orgId, userIds } = audienceOf(b);
    const row = await first<{ id: number }>(
      db,
      sql`INSERT INTO message (tenant_id, created_by, title, summary, content, description, cover, terminal, audience, org_id, user_ids)
          VALUES (${auth.tenantId}, ${auth.userId}, ${b.title}, ${b.summary}, ${richTextOrRefuse(b.content, "content", "fields:messageContent")}, ${b.description}, ${b.cover},
                  ${b.terminal}, ${b.audience}, ${orgId}, ${userIds}::bigint[])
          RETURNING id`,
    );
    return toRecord(await find(db, scope, row?.id as number));
  });

  bindRoute(app, API.message.edit, async ({ auth, input }) => {
    const scope = dataScope(auth);
    const b = input.body;
    const current = await find(db, scope, b.id);
    if (current.state !== MESSAGE_STATES.draft && current.state !== MESSAGE_STATES.scheduled)
      throw business("messages:notEditable");
    await refuseForeignAudience(db, scope, b);
    if (b.cover !== null) await requirePictures(db, auth.tenantId, [b.cover], { field: "cover", label: "fields:cover" });
    const { orgId, userIds } = audienceOf(b);
    const { rowCount } = await run(
      db,
      sql`UPDATE message SET title = ${b.title}, summary = ${b.summary}, content = ${richTextOrRefuse(b.content, "content", "fields:messageContent")}, description = ${b.description},
                 cover = ${b.cover}, terminal = ${b.terminal}, audience = ${b.audience}, org_id = ${orgId},
                 user_ids = ${userIds}::bigint[], updated_at = now()
           WHERE id = ${b.id} AND state IN (${MESSAGE_STATES.draft}, ${MESSAGE_STATES.scheduled})`,
    );
    if (rowCount === 0) throw business("messages:notEditable");
    return toRecord(await find(db, scope, b.id));
  });

  bindRoute(app, API.message.publish, async ({ auth, input }) => {
    const scope = dataScope(auth);
    const current = await find(db, scope, input.body.id);
    if (current.state !== MESSAGE_STATES.draft && current.state !== MESSAGE_STATES.scheduled)
      throw business("messages:notPublishable");
    const now = new Date();
    const at = input.body.publishAt && input.body.publishAt > now ? input.body.publishAt : now;
    // Scheduling and (when the time is now) publishing are one transaction: the job may race it,
    // and the conditional UPDATE lets only one of them deliver the inbox rows.
    const published = await db.transaction(async (tx) => {
      await run(
        tx,
        sql`UPDATE message SET state = ${MESSAGE_STATES.scheduled}, publish_at = ${at}, updated_at = now()
             WHERE id = ${current.id} AND state IN (${MESSAGE_STATES.draft}, ${MESSAGE_STATES.scheduled})`,
      );
      return at <= now ? publishIfDue(tx, current.id, now) : null;
    });
    if (published) await remindRecipients(db, deps.hub, published);
    return toRecord(await find(db, scope, current.id));
  });

  bindRoute(app, API.message.recall, async ({ auth, input }) => {
    const scope = dataScope(auth);
    const current = await find(db, scope, input.body.id);
    const { rowCount } = await run(
      db,
      sql`UPDATE message SET state = ${MESSAGE_STATES.recalled}, recalled_at = now(), updated_at = now()
           WHERE id = ${current.id} AND state IN (${MESSAGE_STATES.scheduled}, ${MESSAGE_STATES.published})`,
    );
    if (rowCount === 0) throw business("messages:notRecallable");
    return toRecord(await find(db, scope, current.id));
  });

  bindRoute(app, API.message.del, async ({ auth, input }) => {
    const { rowCount } = await run(
      db,
      sql`DELETE FROM message m WHERE m.id = ${input.body.id} AND ${dataScope(auth).messages("m")}
           AND m.state IN (${MESSAGE_STATES.draft}, ${MESSAGE_STATES.recalled})`,
    );
    if (rowCount === 0) {
      await find(db, dataScope(auth), input.body.id);
      throw business("messages:notDeletable");
    }
    return null;
  });

  bindRoute(app, API.inbox.page, async ({ auth, input }) => inboxPage(db, auth, "web", input.query));
  bindRoute(app, API.inbox.read, async ({ auth, input }) => markRead(db, auth, "web", input.body));
  bindRoute(app, API.appInbox.inbox, async ({ auth, input }) => inboxPage(db, auth, "app", input.query));
  bindRoute(app, API.appInbox.read, async ({ auth, input }) => markRead(db, auth, "app", input.body));
}
