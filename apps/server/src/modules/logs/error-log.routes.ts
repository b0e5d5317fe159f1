import { API } from "@ess/contracts";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/db.ts";
import { bindRoute } from "../../http/route.ts";
import { writeClientErrors } from "./log.writer.ts";

export function registerErrorLogRoutes(app: FastifyInstance, db: Db) {
  bindRoute(app, API.errorLog.upload, async ({ auth, request, input }) => {
    const stored = await writeClientErrors(
      db,
      {
        tenantId: auth.tenantId,
        userId: auth.userId,
        username: auth.username,
        ip: request.ip,
        userAgent: request.headers["user-agent"] ?? null,
      },
      input.body,
    );
    return { stored };
  });
}
