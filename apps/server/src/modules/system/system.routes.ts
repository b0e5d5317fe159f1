import { API } from "@ess/contracts";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/db.ts";
import { bindRoute } from "../../http/route.ts";
import type { Metrics } from "../../observability/metrics.ts";

export interface ReadinessProbe {
  isConnected(): boolean;
  /** True while the broker is connected but delivers no device message (ingest-watchdog.ts). */
  ingestStalled?(): boolean;
}

export function registerSystemRoutes(app: FastifyInstance, deps: { db: Db; broker: ReadinessProbe; metrics: Metrics }) {
  bindRoute(app, API.system.healthz, () => ({ status: "ok" as const, uptimeSeconds: Math.round(process.uptime()) }));

  bindRoute(app, API.system.readyz, async ({ reply }) => {
    const checks = {
      database: await deps.db.ping(),
      broker: deps.broker.isConnected(),
      ingest: !(deps.broker.ingestStalled?.() ?? false),
    };
    const ready = checks.database && checks.broker;
    // A stalled ingest still serves HTTP: degraded, not taken out of a load balancer.
    reply.status(ready ? 200 : 503);
    return { status: !ready ? ("not ready" as const) : checks.ingest ? ("ready" as const) : ("degraded" as const), checks };
  });

  // Prometheus text format; kept outside the contracts because it is not JSON.
  app.get("/metrics", { config: { access: { public: true } }, schema: { hide: true } }, async (_request, reply) => {
    reply.type(deps.metrics.registry.contentType);
    return deps.metrics.registry.metrics();
  });
}
