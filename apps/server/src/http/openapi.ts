import { PRODUCT } from "@ess/domain";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";

/** The OpenAPI document is generated from the contracts' schemas; browsable at /api/docs. */
export async function registerOpenApi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: `${PRODUCT.name} API`,
        version: PRODUCT.version,
        description:
          "Every JSON answer is `{code, msg, data}` (code 0 success, 1 error, 5 session expired); " +
          "errors also carry `errorCode`, the catalogue code. Send `Authorization: Bearer <access_token>`, " +
          "`TENANT-ID` and optionally `Accept-Language` (zh-CN, en-US, it, es, ja).",
      },
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    },
  });
  await app.register(swaggerUi, { routePrefix: "/api/docs", uiConfig: { docExpansion: "list", deepLinking: true } });
}
