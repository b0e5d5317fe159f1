import { API, type RouteContract } from "@ess/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Db } from "../../db/db.ts";
import { tenantOf } from "../../http/tenant.ts";
import { writeOperation } from "./log.writer.ts";

/** Request fields whose values never reach the log, whatever the route. */
const SECRET = /pass(word)?|token|secret|authorization|credential|captcha|proof/i;
const MAX_PARAMS_CHARS = 8_000;
const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The id of each contract in the API registry ("user.save"), which the log stores as the operation. */
const ROUTE_IDS = new Map<RouteContract, string>(
  Object.entries(API).flatMap(([group, routes]) =>
    Object.entries(routes as Record<string, RouteContract>).map(([name, contract]) => [contract, `${group}.${name}`] as const),
  ),
);

export function maskSecrets(value: unknown, extra: ReadonlySet<string> = new Set()): unknown {
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, extra));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, v]) =>
      SECRET.test(key) || extra.has(key) ? [key, "***"] : [key, maskSecrets(v, extra)],
    ),
  );
}

function paramsOf(request: FastifyRequest, contract: RouteContract): unknown {
  const extra = new Set(contract.secrets ?? []);
  // An uploaded file is logged by its size, not its bytes.
  const body = Buffer.isBuffer(request.body) ? { bytes: request.body.length } : (request.body ?? null);
  const params = maskSecrets({ query: request.query, params: request.params, body }, extra);
  const text = JSON.stringify(params);
  return text.length > MAX_PARAMS_CHARS ? { truncated: text.slice(0, MAX_PARAMS_CHARS) } : params;
}

/**
 * The operation log is written here, once for every route: each change (any method but a read)
 * is recorded — operator, operation, method and path, parameters with secrets masked, status,
 * duration in ms and address — whether it succeeded or was refused. The line is written before
 * the answer leaves, so whoever saw the answer can find the line.
 */
export function installAuditLog(app: FastifyInstance, db: Db) {
  app.addHook("onSend", async (request, reply, payload) => {
    const contract = request.routeOptions.config.contract;
    if (!contract || contract.audit === false || READS.has(request.method)) return payload;
    const caller = request.caller;
    const body = request.body as { username?: unknown } | undefined;
    const errorCode = reply.statusCode >= 400 ? String(reply.getHeader("x-error-code") ?? reply.statusCode) : null;
    await writeOperation(db, {
      tenantId: caller?.tenantId ?? tenantOf(request),
      operatorId: caller?.userId ?? null,
      operatorName: caller?.username ?? (typeof body?.username === "string" ? body.username.slice(0, 64) : ""),
      operation: ROUTE_IDS.get(contract) ?? `${contract.method} ${contract.path}`,
      method: request.method,
      requestUri: request.url.split("?")[0] ?? request.url,
      params: paramsOf(request, contract),
      status: reply.statusCode,
      errorCode,
      durationMs: Math.round(reply.elapsedTime),
      ip: request.ip,
      userAgent: request.headers["user-agent"]?.slice(0, 255) ?? null,
    }).catch((error) => request.log.error({ err: error }, "could not write the operation log"));
    return payload;
  });
}
