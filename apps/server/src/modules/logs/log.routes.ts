import { API, type LogRecord } from "@ess/contracts";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/db.ts";
import { containsPattern, run, sql } from "../../db/sql.ts";
import { notFound } from "../../http/errors.ts";
import { fetchPage, orderBy } from "../../http/paging.ts";
import { bindRoute } from "../../http/route.ts";
import { dataScope } from "../scope/data-scope.ts";

interface LogRow {
  id: number;
  log_type: LogRecord["type"];
  operator_id: number | null;
  operator_name: string;
  operation: string;
  method: string;
  request_uri: string;
  params: unknown;
  status: number | null;
  error_code: string | null;
  duration_ms: number;
  ip: string | null;
  user_agent: string | null;
  message: string | null;
  stack: string | null;
  created_at: Date;
}

const SELECT = sql.raw(
  "l.id, l.log_type, l.operator_id, l.operator_name, l.operation, l.method, l.request_uri, l.params, l.status, l.error_code, l.duration_ms, l.ip, l.user_agent, l.message, l.stack, l.created_at",
);
const SORT = { id: "l.id", createTime: "l.created_at", durationMs: "l.duration_ms", operation: "l.operation" };

const toLog = (r: LogRow): LogRecord => ({
  id: r.id,
  type: r.log_type,
  operatorId: r.operator_id,
  operatorName: r.operator_name,
  operation: r.operation,
  method: r.method,
  requestUri: r.request_uri,
  params: r.params,
  status: r.status,
  errorCode: r.error_code,
  durationMs: r.duration_ms,
  ip: r.ip,
  userAgent: r.user_agent,
  message: r.message,
  stack: r.stack,
  createTime: r.created_at.toISOString(),
});

export function registerLogRoutes(app: FastifyInstance, db: Db) {
  bindRoute(app, API.log.page, async ({ auth, input }) => {
    const q = input.query;
    const where = sql.and([
      dataScope(auth).logs("l"),
      q.type !== undefined && sql`l.log_type = ${q.type}`,
      q.operator !== undefined && sql`l.operator_name ILIKE ${containsPattern(q.operator)}`,
      q.operation !== undefined && sql`l.operation ILIKE ${containsPattern(q.operation)}`,
      q.ip !== undefined && sql`l.ip ILIKE ${containsPattern(q.ip)}`,
      q.status !== undefined && sql`l.status = ${q.status}`,
      q.from !== undefined && sql`l.created_at >= ${q.from}`,
      q.to !== undefined && sql`l.created_at <= ${q.to}`,
    ]);
    return fetchPage<LogRow, LogRecord>(
      db,
      { select: SELECT, from: sql.raw("sys_log l"), where, order: orderBy(q, SORT, "l.id") },
      q,
      toLog,
    );
  });

  bindRoute(app, API.log.del, async ({ auth, input }) => {
    const { rowCount } = await run(db, sql`DELETE FROM sys_log l WHERE l.id = ${input.body.id} AND ${dataScope(auth).logs("l")}`);
    if (rowCount === 0) throw notFound();
    return null;
  });
}
