import { API, type RouteContract } from "@ess/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AuditScope } from "../../db/audit-scope.ts";
import type { Db } from "../../db/db.ts";
import { tenantOf } from "../../http/tenant.ts";
import { completeOperation, type OperationEntry, writeOperation } from "./log.writer.ts";
import { truncateText } from "./log-text.ts";

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

/** The operation a request to this contract is logged as (its registry id; each has a name in `OPERATION_IDS`). */
export const operationOf = (contract: RouteContract): string => ROUTE_IDS.get(contract) ?? `${contract.method} ${contract.path}`;

/** Every operation a change request can be logged as. */
export const loggedOperations = (): string[] =>
  [...ROUTE_IDS].filter(([contract]) => isAudited(contract.method, contract)).map(([, id]) => id);

/** Deeper than any request of the API nests: what lies below is recorded as this mark. */
const MAX_DEPTH = 32;
const TOO_DEEP = "[nested too deep to record]";

export function maskSecrets(value: unknown, extra: ReadonlySet<string> = new Set(), depth = 0): unknown {
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, extra, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, v]) =>
      SECRET.test(key) || extra.has(key) ? [key, "***"] : [key, maskSecrets(v, extra, depth + 1)],
    ),
  );
}

function paramsOf(request: FastifyRequest, contract: RouteContract): unknown {
  const extra = new Set(contract.secrets ?? []);
  // An uploaded file is logged by its size, not its bytes.
  const body = Buffer.isBuffer(request.body) ? { bytes: request.body.length } : (request.body ?? null);
  const params = maskSecrets({ query: request.query, params: request.params, body }, extra);
  const text = JSON.stringify(params);
  return text.length > MAX_PARAMS_CHARS ? { truncated: truncateText(text, MAX_PARAMS_CHARS) } : params;
}

/** Whether a request to this contract is a change the operation log records. */
export const isAudited = (method: string, contract: RouteContract | undefined): contract is RouteContract =>
  contract !== undefined && contract.audit !== false && !READS.has(method);

/** How the request ended (or, while it runs, how it stands: presumed successful). */
function outcome(request: FastifyRequest, reply: FastifyReply | null) {
  const status = reply?.statusCode ?? 200;
  return {
    status,
    errorCode: status >= 400 ? String(reply?.getHeader("x-error-code") ?? status) : null,
    durationMs: Math.round(reply?.elapsedTime ?? performance.now() - request.auditStartedAt),
  };
}

function entryOf(request: FastifyRequest, contract: RouteContract, reply: FastifyReply | null): OperationEntry {
  const caller = request.caller;
  const body = request.body as { username?: unknown } | undefined;
  return {
    tenantId: caller?.tenantId ?? tenantOf(request),
    operatorId: caller?.userId ?? null,
    operatorName: caller?.username ?? (typeof body?.username === "string" ? body.username : ""),
    operation: operationOf(contract),
    method: request.method,
    requestUri: request.url.split("?")[0] ?? request.url,
    params: paramsOf(request, contract),
    ...outcome(request, reply),
    ip: request.ip,
    userAgent: request.headers["user-agent"] ?? null,
  };
}

/**
 * The operation log: each change (any method but a read, unless its contract says `audit: false`)
 * is recorded — operator, operation, method and path, parameters with secrets masked, status,
 * catalogue code, duration in ms and address — whether it succeeded or was refused.
 *
 * A change request runs in an audit scope (`db/audit-scope.ts`, entered by the route binder): the
 * first transaction that changes something inserts the line, presumed successful, before its
 * COMMIT (`db/audited-db.ts`), so no change is committed without its line. When the answer leaves,
 * this hook completes that line with the final status, code and duration, or — for a request
 * that changed nothing, such as a refusal — inserts it, before the answer is sent.
 */
export function installAuditLog(app: FastifyInstance, db: Db) {
  app.decorateRequest("audit", null);
  app.decorateRequest("auditStartedAt", 0);

  app.addHook("onRequest", async (request) => {
    const contract = request.routeOptions.config.contract;
    if (!isAudited(request.method, contract)) return;
    request.auditStartedAt = performance.now();
    const scope: AuditScope = {
      lineIds: [],
      closed: false,
      insertLine: async (tx) => writeOperation(tx, entryOf(request, contract, null)),
    };
    request.audit = scope;
  });

  app.addHook("onSend", async (request, reply, payload) => {
    const scope = request.audit;
    const contract = request.routeOptions.config.contract;
    if (!scope || !contract) return payload;
    scope.closed = true;
    try {
      if (scope.lineIds.length > 0) await completeOperation(db, scope.lineIds, outcome(request, reply));
      else await writeOperation(db, entryOf(request, contract, reply));
    } catch (error) {
      request.log.error({ err: error }, "could not write the operation log");
    }
    return payload;
  });
}
