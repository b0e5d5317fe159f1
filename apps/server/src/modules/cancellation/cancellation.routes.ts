import { API, type CancellationRecord } from "@ess/contracts";
import { CANCELLATION_STATUS } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/db.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { containsPattern, first, run, type Sql, sql } from "../../db/sql.ts";
import { AppError, business, notFound } from "../../http/errors.ts";
import { fetchPage, orderBy } from "../../http/paging.ts";
import { bindRoute } from "../../http/route.ts";
import type { AuthService } from "../auth/auth.service.ts";
import { type DataScope, dataScope } from "../scope/data-scope.ts";
import { anonymiseAccounts } from "../users/account.repository.ts";

interface CancellationRow {
  id: number;
  user_id: number;
  username: string;
  email: string | null;
  ip: string | null;
  type: number;
  reason: string;
  status: number;
  remarks: string;
  reviewer: string | null;
  reviewed_at: Date | null;
  created_at: Date;
}

const SELECT = sql.raw(
  "c.id, c.user_id, c.username, c.email, c.ip, c.type, c.reason, c.status, c.remarks, r.username AS reviewer, c.reviewed_at, c.created_at",
);
const FROM = sql.raw("account_cancellation c LEFT JOIN sys_user r ON r.id = c.reviewer_id");
const SORT = { id: "c.id", createTime: "c.created_at", status: "c.status" };

const toRecord = (r: CancellationRow): CancellationRecord => ({
  id: r.id,
  userId: r.user_id,
  username: r.username,
  email: r.email,
  ip: r.ip,
  type: r.type,
  reason: r.reason,
  status: r.status,
  remarks: r.remarks,
  reviewer: r.reviewer,
  reviewTime: r.reviewed_at?.toISOString() ?? null,
  createTime: r.created_at.toISOString(),
});

const find = (db: Db, scope: DataScope, id: number, extra: Sql = sql.raw("TRUE")) =>
  first<CancellationRow>(db, sql`SELECT ${SELECT} FROM ${FROM} WHERE c.id = ${id} AND ${scope.cancellations("c")} AND ${extra}`);

/** Keeps a trace that the request existed without the person: a***@example.com, 203.0.113.x. */
const maskEmail = (email: string | null) => email?.replace(/^(.)[^@]*/, "$1***") ?? null;
const maskIp = (ip: string | null) => ip?.replace(/\.\d+$/, ".x").replace(/:[0-9a-f]*$/i, ":x") ?? null;

export function registerCancellationRoutes(app: FastifyInstance, db: Db, auth: AuthService) {
  bindRoute(app, API.cancellation.apply, async ({ auth: caller, input, request }) => {
    const email =
      input.body.email ??
      (await first<{ email: string | null }>(db, sql`SELECT email FROM sys_user WHERE id = ${caller.userId}`))?.email ??
      null;
    const row = await first<{ id: number }>(
      db,
      sql`INSERT INTO account_cancellation (tenant_id, user_id, username, email, ip, type, reason)
          VALUES (${caller.tenantId}, ${caller.userId}, ${caller.username}, ${email}, ${request.ip}, ${input.body.type}, ${input.body.reason})
          RETURNING id`,
    ).catch((error) => Promise.reject(isUniqueViolation(error) ? new AppError("conflict", "cancellation:pending") : error));
    const created = await first<CancellationRow>(db, sql`SELECT ${SELECT} FROM ${FROM} WHERE c.id = ${row?.id}`);
    return toRecord(created as CancellationRow);
  });

  bindRoute(app, API.cancellation.page, async ({ auth: caller, input }) => {
    const q = input.query;
    const where = sql.and([
      dataScope(caller).cancellations("c"),
      q.status !== undefined && sql`c.status = ${q.status}`,
      q.type !== undefined && sql`c.type = ${q.type}`,
      q.username !== undefined && sql`c.username ILIKE ${containsPattern(q.username)}`,
      q.email !== undefined && sql`c.email ILIKE ${containsPattern(q.email)}`,
    ]);
    return fetchPage<CancellationRow, CancellationRecord>(
      db,
      { select: SELECT, from: FROM, where, order: orderBy(q, SORT, "c.created_at") },
      q,
      toRecord,
    );
  });

  // Approval deletes the account for good, in the same transaction as the verdict: the account
  // (and a master user's sub-users) is anonymised, its sessions end, its devices are unbound, and
  // the request keeps only masked contact data.
  bindRoute(app, API.cancellation.review, async ({ auth: caller, input }) => {
    const scope = dataScope(caller);
    const request = await find(db, scope, input.body.id);
    if (!request) throw notFound();
    if (request.status !== CANCELLATION_STATUS.pending) throw business("cancellation:reviewed");
    const approved = input.body.status === CANCELLATION_STATUS.approved;
    if (approved && request.user_id === caller.userId) throw business("channel:deleteSelf");
    const removed = await db.transaction(async (tx) => {
      await run(
        tx,
        sql`UPDATE account_cancellation SET status = ${input.body.status}, remarks = ${input.body.remarks},
                   reviewer_id = ${caller.userId}, reviewed_at = now() WHERE id = ${request.id}`,
      );
      if (!approved) return [];
      const { rows } = await run<{ id: number }>(
        tx,
        sql`SELECT id FROM sys_user WHERE (id = ${request.user_id} OR parent_user_id = ${request.user_id}) AND deleted_at IS NULL`,
      );
      await anonymiseAccounts(
        tx,
        rows.map((r) => r.id),
      );
      await run(
        tx,
        sql`UPDATE account_cancellation SET username = 'deleted-' || user_id, email = ${maskEmail(request.email)}, ip = ${maskIp(request.ip)}
             WHERE user_id = ${request.user_id}`,
      );
      return rows.map((r) => r.id);
    });
    for (const id of removed) auth.forgetUser(id);
    return toRecord((await find(db, scope, request.id)) as CancellationRow);
  });

  bindRoute(app, API.cancellation.del, async ({ auth: caller, input }) => {
    const { rowCount } = await run(
      db,
      sql`DELETE FROM account_cancellation c WHERE c.id = ${input.body.id} AND ${dataScope(caller).cancellations("c")}`,
    );
    if (rowCount === 0) throw notFound();
    return null;
  });
}
