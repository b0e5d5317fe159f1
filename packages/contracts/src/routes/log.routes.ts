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
  /** The route's id in the API registry (users.save…), or client.error. */
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

export const logRoutes = {
  page: defineRoute({
    method: "GET",
    path: "/sys/log/page",
    summary: "The operation log, newest first by default",
    tags: ["logs"],
    access: { permission: "sys.log.view" },
    query: listQuery(["id", "createTime", "durationMs", "operation"], {
      type: z.preprocess((v) => (v === "" ? undefined : v), z.enum(LOG_TYPES).optional()),
      operator: textFilter,
      operation: textFilter,
      ip: textFilter,
      status: intFilter,
      from: timeFilter,
      to: timeFilter,
    }),
    data: pageOf(logRecord),
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
