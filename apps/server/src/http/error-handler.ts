import type { ErrorEnvelope } from "@ess/contracts";
import { ERROR_CATALOGUE, type ErrorKind } from "@ess/domain";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AuditLineError } from "../db/errors.ts";
import type { Translate } from "../i18n/translator.ts";
import { AppError, ValidationError } from "./errors.ts";

const MISSING = "\u0000";

/**
 * The field's name in the caller's language: the label its schema gives it, else its own entry in
 * `fields`, else (settings) its register's name; never the raw identifier — a field without any
 * reads as "this value".
 */
export function fieldLabel(t: Translate, problem: { field: string; label?: string }) {
  if (problem.label) return t(problem.label);
  const leaf =
    problem.field
      .split(".")
      .filter((s) => !/^\d+$/.test(s))
      .at(-1) ?? problem.field;
  for (const key of [`fields:${leaf}`, `registers:${leaf}`]) {
    const label = t(key, { defaultValue: MISSING });
    if (label !== MISSING) return label;
  }
  return t("fields:unnamed");
}

/** Translates one field problem, naming the field by its label. */
export function fieldMessage(
  t: Translate,
  problem: { field: string; key: string; values: Record<string, unknown>; label?: string | undefined },
) {
  return t(problem.key, { ...problem.values, field: fieldLabel(t, problem) });
}

export function sendError(reply: FastifyReply, kind: ErrorKind, msg: string, data: ErrorEnvelope["data"] = null) {
  const entry = ERROR_CATALOGUE[kind];
  const body: ErrorEnvelope = { code: entry.bodyCode, msg, data, errorCode: entry.code };
  // The catalogue code also travels as a header, so that the operation log can record it.
  return reply.status(entry.status).header("x-error-code", entry.code).type("application/json; charset=utf-8").send(body);
}

/**
 * Maps every failure to the envelope: known ones to their catalogue entry and translated
 * message, anything else to a generic 500 whose details go only to the log.
 */
export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
    const t = request.t;
    if (error instanceof ValidationError) {
      const fields = error.problems.map((p) => ({ field: p.field, message: fieldMessage(t, p) }));
      return sendError(reply, "validation", fields.map((f) => f.message).join("; "), { fields });
    }
    if (error instanceof AuditLineError) {
      request.log.error({ err: error.cause }, "operation log refused a change's line; the change was rolled back");
      return sendError(reply, "unavailable", t("errors:auditUnavailable"));
    }
    if (error instanceof AppError) {
      if (error.kind === "internal") request.log.error({ err: error }, "internal error");
      return sendError(reply, error.kind, t(error.messageKey ?? `errors:${error.kind}`, error.values));
    }
    const status = (error as FastifyError).statusCode ?? 500;
    const code = (error as FastifyError).code;
    if (code === "FST_ERR_CTP_INVALID_JSON_BODY" || code === "FST_ERR_CTP_EMPTY_JSON_BODY" || error instanceof SyntaxError) {
      const message = t("validation:invalid", { field: t("fields:body") });
      return sendError(reply, "validation", message, { fields: [{ field: "body", message }] });
    }
    if (status === 413) return sendError(reply, "payloadTooLarge", t("errors:payloadTooLarge"));
    if (status === 415 || (status === 400 && code?.startsWith("FST_ERR_CTP"))) {
      return sendError(reply, "validation", t("errors:validation"));
    }
    if (status === 429) return sendError(reply, "rateLimited", t("errors:rateLimited"));
    if (status === 404) return sendError(reply, "notFound", t("errors:notFound"));
    request.log.error({ err: error }, "unhandled error");
    return sendError(reply, "internal", t("errors:internal"));
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(reply, "notFound", request.t("errors:routeNotFound", { method: request.method, path: request.url.split("?")[0] })),
  );
}
