import { envelope, errorEnvelope, fieldProblems, type RouteContract, type RouteData, type RouteParsed } from "@ess/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { runAudited } from "../db/audit-scope.ts";
import type { AuthContext } from "../modules/auth/auth.context.ts";
import { allowedBeforePasswordChange } from "../modules/auth/password-change-gate.ts";
import { AppError, ValidationError } from "./errors.ts";

export interface RouteContext<C extends RouteContract> {
  request: FastifyRequest;
  reply: FastifyReply;
  input: RouteParsed<C>;
  /** The signed-in caller; null only on public routes. */
  auth: C["access"] extends { public: true } ? AuthContext | null : AuthContext;
}

export type RouteHandler<C extends RouteContract> = (ctx: RouteContext<C>) => Promise<RouteData<C>> | RouteData<C>;

const toJsonSchema = (schema: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-07" }) as Record<string, unknown>;

function parsePart(schema: z.ZodType | undefined, value: unknown, prefix: string) {
  if (!schema) return undefined;
  const input = value ?? (prefix === "body" ? undefined : {});
  // reportInput lets a value of the wrong type read as such rather than as a missing one.
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const problems = fieldProblems(schema, result.error.issues, input).map((problem) =>
    problem.field === "body" && prefix !== "body" ? { ...problem, field: prefix } : problem,
  );
  throw new ValidationError(problems);
}

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** A change request runs in its audit scope: its first committed change carries its operation-log line. */
const inAuditScope =
  (handler: Handler): Handler =>
  (request, reply) =>
    request.audit ? runAudited(request.audit, () => handler(request, reply)) : handler(request, reply);

/**
 * Registers the handler of one contract: authenticates and checks the permission the contract
 * declares, validates query, params and body with its zod schemas, wraps the answer in the
 * envelope, and documents it all in OpenAPI. With `checkResponses` (tests), an answer that does
 * not match its schema is a server error, so a contract cannot drift unnoticed.
 */
export function bindRoute<C extends RouteContract>(app: FastifyInstance, contract: C, handler: RouteHandler<C>) {
  const responseSchema = contract.raw ? contract.data : envelope(contract.data);
  const config = { contract, access: contract.access };
  app.route({
    method: contract.method,
    url: contract.path,
    config,
    schema: {
      summary: contract.summary,
      tags: [...contract.tags],
      ...("public" in contract.access ? {} : { security: [{ bearer: [] }] }),
      ...(contract.query ? { querystring: toJsonSchema(contract.query, "input") } : {}),
      ...(contract.params ? { params: toJsonSchema(contract.params, "input") } : {}),
      ...(contract.body ? { body: toJsonSchema(contract.body, "input") } : {}),
      response: {
        200: toJsonSchema(responseSchema, "output"),
        ...(contract.raw ? {} : { "4xx": toJsonSchema(errorEnvelope, "output") }),
      },
    },
    handler: inAuditScope(async (request, reply) => {
      const auth = "public" in contract.access ? await app.auth.optional(request) : await app.auth.require(request);
      request.caller = auth;
      if (auth?.mustChangePassword && !allowedBeforePasswordChange(contract)) {
        throw new AppError("forbidden", "auth:password.mustChange");
      }
      if ("permission" in contract.access && !auth?.permissions.has(contract.access.permission)) {
        throw new AppError("forbidden");
      }
      const input = {
        query: parsePart(contract.query, request.query, "query"),
        params: parsePart(contract.params, request.params, "params"),
        body: parsePart(contract.body, request.body, "body"),
      } as RouteParsed<C>;
      const data = await handler({ request, reply, input, auth } as RouteContext<C>);
      if (reply.sent) return reply;
      if (app.checkResponses) {
        const checked = contract.data.safeParse(data);
        if (!checked.success) {
          request.log.error({ issues: checked.error.issues, route: contract.path }, "answer does not match its contract");
          throw new AppError("internal");
        }
      }
      reply.type("application/json; charset=utf-8");
      return JSON.stringify(contract.raw ? data : { code: 0, msg: request.t("common:success"), data });
    }),
  });
}
