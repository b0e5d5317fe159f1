import { z } from "zod";
import { defineRoute } from "../route.ts";

const health = z.object({ status: z.enum(["ok"]), uptimeSeconds: z.number() });
const readiness = z.object({
  status: z.enum(["ready", "not ready"]),
  checks: z.object({ database: z.boolean(), broker: z.boolean() }),
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
    summary: "Readiness: database and MQTT broker reachable (503 otherwise)",
    tags: ["system"],
    access: { public: true },
    data: readiness,
    raw: true,
  }),
} as const;
