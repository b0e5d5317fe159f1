import { MESSAGE_STATES, type MessageAudience, type MessageTerminal, type OrgKind } from "@ess/domain";
import type { Db, Queryable } from "../../db/db.ts";
import { first, run, type Sql, sql } from "../../db/sql.ts";
import { sendReminder } from "../realtime/realtime.routes.ts";
import type { RealtimeHub } from "../realtime/realtime-hub.ts";
import { dataScope, type ScopeSubject } from "../scope/data-scope.ts";

interface PublishedRow {
  id: number;
  tenant_id: number;
  created_by: number;
  title: string;
  summary: string;
  terminal: MessageTerminal;
  audience: MessageAudience;
  org_id: number | null;
  user_ids: number[];
}

/** The sender's data scope, read back from its account (the scheduled job has no signed-in caller). */
export async function scopeSubjectOf(db: Queryable, userId: number): Promise<ScopeSubject | null> {
  const row = await first<{
    id: number;
    tenant_id: number;
    user_type: number;
    parent_user_id: number | null;
    org_id: number | null;
    path: string | null;
    kind: OrgKind | null;
    parent_id: number | null;
  }>(
    db,
    sql`SELECT u.id, u.tenant_id, u.user_type, u.parent_user_id, u.org_id, o.path, o.kind, o.parent_id
          FROM sys_user u LEFT JOIN organisation o ON o.id = u.org_id WHERE u.id = ${userId}`,
  );
  if (!row) return null;
  return {
    userId: row.id,
    tenantId: row.tenant_id,
    userType: row.user_type,
    parentUserId: row.parent_user_id,
    org:
      row.org_id === null || row.path === null
        ? null
        : { id: row.org_id, path: row.path, kind: row.kind as OrgKind, parentId: row.parent_id },
  };
}

/**
 * The accounts a message reaches: within its sender's data scope, of the kinds its terminal shows
 * it to (the app: end users; the web: console staff; both), narrowed by its audience (everyone, an
 * organisation's subtree, chosen accounts). The sender is not among them.
 */
export function recipientsOf(subject: ScopeSubject, m: Omit<PublishedRow, "title" | "summary" | "tenant_id">): Sql {
  const scope = dataScope(subject);
  const types = m.terminal === "app" ? sql`u.user_type = 2` : m.terminal === "web" ? sql`u.user_type IN (0, 1)` : null;
  const audience =
    m.audience === "organisation"
      ? sql`u.org_id IN (SELECT c.id FROM organisation c JOIN organisation top ON top.id = ${m.org_id}
                          WHERE c.tenant_id = top.tenant_id AND c.path LIKE top.path || '%' AND c.deleted_at IS NULL)`
      : m.audience === "users"
        ? sql`u.id = ANY(${m.user_ids}::bigint[])`
        : null;
  return sql`SELECT u.id FROM sys_user u
              WHERE ${sql.and([scope.users("u"), sql`u.deleted_at IS NULL`, sql`u.id <> ${m.created_by}`, types, audience])}`;
}

/**
 * Publishes a scheduled message whose time has come, exactly once: the conditional UPDATE (state
 * still 1, time past) claims it, and the inbox rows go in the same transaction, so two processes or
 * a restart racing over the same message publish it once (the second finds it no longer scheduled).
 * Answers the recipients, or null when the message was not (or no longer) due.
 */
export async function publishIfDue(
  db: Queryable,
  id: number,
  now: Date,
): Promise<{ message: PublishedRow; recipients: number[] } | null> {
  const claimed = await first<PublishedRow>(
    db,
    sql`UPDATE message SET state = ${MESSAGE_STATES.published}, published_at = ${now}, updated_at = ${now}
         WHERE id = ${id} AND state = ${MESSAGE_STATES.scheduled} AND publish_at <= ${now}
     RETURNING id, tenant_id, created_by, title, summary, terminal, audience, org_id, to_jsonb(user_ids) AS user_ids`,
  );
  if (!claimed) return null;
  const subject = await scopeSubjectOf(db, claimed.created_by);
  if (!subject) return { message: claimed, recipients: [] };
  const { rows } = await run<{ user_id: number }>(
    db,
    sql`INSERT INTO message_recipient (message_id, user_id, published_at)
        SELECT ${claimed.id}, r.id, ${now} FROM (${recipientsOf(subject, claimed)}) r
        ON CONFLICT DO NOTHING RETURNING user_id`,
  );
  return { message: claimed, recipients: rows.map((r) => r.user_id) };
}

/** The live reminder to the console users a message addresses, once it is committed. */
export async function remindRecipients(
  db: Queryable,
  hub: RealtimeHub | null,
  published: { message: PublishedRow; recipients: number[] },
): Promise<void> {
  const { message, recipients } = published;
  if (!hub || message.terminal === "app" || recipients.length === 0) return;
  const { rows } = await run<{ id: number }>(
    db,
    sql`SELECT id FROM sys_user WHERE id = ANY(${recipients}::bigint[]) AND user_type IN (0, 1)`,
  );
  const sender = await first<{ username: string }>(db, sql`SELECT username FROM sys_user WHERE id = ${message.created_by}`);
  for (const r of rows) {
    sendReminder(hub, message.tenant_id, r.id, {
      title: message.title,
      content: message.summary,
      from: sender?.username ?? null,
      messageId: message.id,
    });
  }
}

export interface MessagePublisher {
  /** Publishes every scheduled message due at `now` (default: the clock's time); answers how many. */
  tick(now?: Date): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

/**
 * The periodic job that publishes scheduled messages. Durable: the schedule is in the database, so
 * a message due while the server was down is published at the first tick after the start.
 */
export function createMessagePublisher(deps: {
  db: Db;
  hub: RealtimeHub | null;
  log?: { error(obj: unknown, msg: string): void };
  now?: () => Date;
  tickMs?: number;
}): MessagePublisher {
  const clock = deps.now ?? (() => new Date());
  let timer: NodeJS.Timeout | null = null;
  let ticking: Promise<number> | null = null;

  async function tickOnce(now: Date): Promise<number> {
    const { rows } = await run<{ id: number }>(
      deps.db,
      sql`SELECT id FROM message WHERE state = ${MESSAGE_STATES.scheduled} AND publish_at <= ${now} ORDER BY publish_at, id LIMIT 100`,
    );
    let published = 0;
    for (const { id } of rows) {
      const done = await deps.db.transaction((tx) => publishIfDue(tx, id, now));
      if (!done) continue;
      published += 1;
      await remindRecipients(deps.db, deps.hub, done);
    }
    return published;
  }

  function tick(now = clock()): Promise<number> {
    ticking ??= tickOnce(now)
      .catch((error) => {
        deps.log?.error({ err: error }, "Message publication tick failed");
        return 0;
      })
      .finally(() => {
        ticking = null;
      });
    return ticking;
  }

  return {
    tick,
    start() {
      timer ??= setInterval(() => void tick(), deps.tickMs ?? 15_000);
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await ticking;
    },
  };
}
