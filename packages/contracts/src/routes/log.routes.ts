import { z } from "zod";
import { instant } from "../account-fields.ts";
import { pageOf } from "../envelope.ts";
import { idBody, intFilter, listQuery, textFilter, timeFilter } from "../list.ts";
import { defineRoute } from "../route.ts";

export const LOG_TYPES = ["operation", "client-error"] as const;

/** One line of the operation log (spec §3 Log), or an uploaded console error. */
export const logRecord = z.object({
  id: z.number().int(),
  type: z.enum(LOG_TYPES),
  operatorId: z.number().int().nullable(),
  operatorName: z.string(),
  /** The route's id in the API registry (user.save…), or client.error: an id of `OPERATION_IDS`, named in i18n `operations`. */
  operation: z.string(),
  method: z.string(),
  requestUri: z.string(),
  /** Query and body, passwords and tokens masked. */
  params: z.unknown(),
  status: z.number().int().nullable(),
  errorCode: z.string().nullable(),
  durationMs: z.number().int(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  message: z.string().nullable(),
  stack: z.string().nullable(),
  createTime: instant,
});
export type LogRecord = z.infer<typeof logRecord>;

/** The log's filters; `operation` is an operation id (`OPERATION_IDS` of `packages/domain`), matched exactly. */
const logFilters = {
  type: z.preprocess((v) => (v === "" ? undefined : v), z.enum(LOG_TYPES).optional()),
  operator: textFilter,
  operation: textFilter,
  ip: textFilter,
  status: intFilter,
  from: timeFilter,
  to: timeFilter,
};
const logListQuery = listQuery(["id", "createTime", "durationMs", "operation"], logFilters);

export const logRoutes = {
  page: defineRoute({
    method: "GET",
    path: "/sys/log/page",
    summary: "The operation log, newest first by default",
    tags: ["logs"],
    access: { permission: "sys.log.view" },
    query: logListQuery,
    data: pageOf(logRecord),
    scope: { entity: "log", refs: [] },
    demo: "hidden",
  }),
  export: defineRoute({
    method: "GET",
    path: "/sys/log/export",
    summary: "The same log lines as CSV, operations by their names in the caller's language (at most 10,000 rows)",
    tags: ["logs"],
    access: { permission: "sys.log.view" },
    query: logListQuery.omit({ current: true, size: true }),
    data: z.string().describe("text/csv"),
    raw: true,
    scope: { entity: "log", refs: [] },
    demo: "hidden",
  }),
  del: defineRoute({
    method: "POST",
    path: "/sys/log/del",
    summary: "Delete one log line",
    tags: ["logs"],
    access: { permission: "sys.log.delete" },
    body: idBody,
    data: z.null(),
    scope: { entity: "log", refs: [{ in: "body", field: "id", entity: "log" }] },
  }),
} as const;
