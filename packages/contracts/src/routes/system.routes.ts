import { z } from "zod";
import { defineRoute } from "../route.ts";

const health = z.object({ status: z.enum(["ok"]), uptimeSeconds: z.number() });
const readiness = z.object({
  /** degraded: ready, but device messages stopped arriving from a connected broker (ingest false). */
  status: z.enum(["ready", "degraded", "not ready"]),
  checks: z.object({ database: z.boolean(), broker: z.boolean(), ingest: z.boolean() }),
});

export const systemRoutes = {
  healthz: defineRoute({
    method: "GET",
    path: "/healthz",
    summary: "Liveness: the process answers",
    tags: ["system"],
    access: { public: true },
    data: health,
    raw: true,
  }),
  readyz: defineRoute({
    method: "GET",
    path: "/readyz",
    summary: "Readiness: database and MQTT broker reachable (503 otherwise); degraded while device messages stopped arriving",
    tags: ["system"],
    access: { public: true },
    data: readiness,
    raw: true,
  }),
} as const;
