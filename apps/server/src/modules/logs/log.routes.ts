import { API, type LogRecord, type RouteParsed } from "@ess/contracts";
import { isOperationId, operationLabelKey } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/db.ts";
import { containsPattern, run, sql } from "../../db/sql.ts";
import { notFound } from "../../http/errors.ts";
import { fetchPage, orderBy } from "../../http/paging.ts";
import { bindRoute } from "../../http/route.ts";
import type { Translate } from "../../i18n/translator.ts";
import type { AuthContext } from "../auth/auth.context.ts";
import { dataScope } from "../scope/data-scope.ts";
import { toCsv } from "../users/csv.ts";

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

const EXPORT_LIMIT = 10_000;

type LogFilters = Omit<RouteParsed<typeof API.log.page>["query"], "current" | "size">;

function logWhere(auth: AuthContext, q: LogFilters) {
  return sql.and([
    dataScope(auth).logs("l"),
    q.type !== undefined && sql`l.log_type = ${q.type}`,
    q.operator !== undefined && sql`l.operator_name ILIKE ${containsPattern(q.operator)}`,
    // An operation is chosen by its id from the named list: "user.save" must not find "endUser.save".
    q.operation !== undefined && sql`l.operation = ${q.operation}`,
    q.ip !== undefined && sql`l.ip ILIKE ${containsPattern(q.ip)}`,
    q.status !== undefined && sql`l.status = ${q.status}`,
    q.from !== undefined && sql`l.created_at >= ${q.from}`,
    q.to !== undefined && sql`l.created_at <= ${q.to}`,
  ]);
}

/** An operation's name in the reader's language; a line of an operation no longer known keeps its id. */
export const operationName = (t: Translate, operation: string): string =>
  isOperationId(operation) ? t(operationLabelKey(operation)) : operation;

export function registerLogRoutes(app: FastifyInstance, db: Db) {
  bindRoute(app, API.log.page, async ({ auth, input }) => {
    const q = input.query;
    const where = logWhere(auth, q);
    return fetchPage<LogRow, LogRecord>(
      db,
      { select: SELECT, from: sql.raw("sys_log l"), where, order: orderBy(q, SORT, "l.id") },
      q,
      toLog,
    );
  });

  bindRoute(app, API.log.export, async ({ auth, input, request, reply }) => {
    const q = input.query;
    const { rows } = await run<LogRow>(
      db,
      sql`SELECT ${SELECT} FROM sys_log l WHERE ${logWhere(auth, q)} ${orderBy(q, SORT, "l.id")} LIMIT ${EXPORT_LIMIT}`,
    );
    const t = request.t;
    const csv = toCsv(
      [
        t("fields:id"),
        t("fields:time"),
        t("fields:type"),
        t("fields:operator"),
        t("fields:operation"),
        t("auth:log.method"),
        t("fields:url"),
        t("auth:log.httpStatus"),
        t("auth:log.errorCode"),
        t("auth:log.duration"),
        t("fields:ip"),
        t("fields:message"),
      ],
      rows.map((r) => [
        r.id,
        r.created_at.toISOString(),
        t(`auth:log.types.${r.log_type}`),
        r.operator_name,
        operationName(t, r.operation),
        r.method,
        r.request_uri,
        r.status,
        r.error_code,
        r.duration_ms,
        r.ip,
        r.message,
      ]),
    );
    reply.type("text/csv; charset=utf-8").header("content-disposition", 'attachment; filename="operation-log.csv"').send(csv);
    return "";
  });

  bindRoute(app, API.log.del, async ({ auth, input }) => {
    const { rowCount } = await run(db, sql`DELETE FROM sys_log l WHERE l.id = ${input.body.id} AND ${dataScope(auth).logs("l")}`);
    if (rowCount === 0) throw notFound();
    return null;
  });
}
