import { createHash } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { AppError } from "./errors.ts";

export interface RequestGuardOptions {
  /** Demo mode: changes answer 423, reads of routes marked `demo: "hidden"` 479 (spec §8). */
  demoMode: boolean;
  /** An identical change (same caller, route, query and body) within this many ms answers 000. */
  repeatWindowMs: number;
}

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Two checks every contract route passes before its handler. The repeat guard remembers a digest
 * of each change for a moment in this process: a double click or a retry storm answers "too
 * frequent" instead of doing the change twice. (Behind a load balancer without sticky sessions
 * two processes may each accept one copy; each is still validated and scoped.)
 */
export function installRequestGuards(app: FastifyInstance, options: RequestGuardOptions) {
  const recent = new Map<string, number>();

  app.addHook("preHandler", async (request) => {
    const contract = request.routeOptions.config.contract;
    if (!contract) return;
    const changes = !READS.has(request.method);
    if (options.demoMode) {
      if (contract.demo === "hidden") throw new AppError("demoNoPermission");
      if (changes && contract.demo !== "allowed") throw new AppError("demoForbidden");
    }
    if (!changes || options.repeatWindowMs <= 0) return;
    const now = Date.now();
    const key = createHash("sha256")
      .update(
        `${request.headers.authorization ?? request.ip}\n${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`,
      )
      .digest("base64");
    if ((recent.get(key) ?? 0) > now) throw new AppError("tooFrequent");
    recent.set(key, now + options.repeatWindowMs);
    if (recent.size > 10_000) for (const [k, until] of recent) if (until <= now) recent.delete(k);
  });
}
