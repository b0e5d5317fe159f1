import { createHash } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { Queryable } from "../db/db.ts";
import { AppError } from "./errors.ts";

export interface RequestGuardOptions {
  /** Demo mode: changes answer 423, reads of routes marked `demo: "hidden"` 479 (spec §8). */
  demoMode: boolean;
  /** An identical change (same caller, route, query and body) within this many ms answers 000. */
  repeatWindowMs: number;
  /** Where the guard remembers changes: the database every process of the console shares (not audited). */
  db: Queryable;
}

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

// Claims the digest unless an identical change claimed it within the window: no row back, a repeat.
const CLAIM = `INSERT INTO repeat_guard (key, until) VALUES ($1, now() + $2 * interval '1 millisecond')
ON CONFLICT (key) DO UPDATE SET until = EXCLUDED.until WHERE repeat_guard.until <= now()
RETURNING 1 AS claimed`;
const FORGET = "DELETE FROM repeat_guard WHERE until < now() - interval '1 minute'";
/** Every this many claims, a process deletes the digests long past (no timer to run). */
const FORGET_EVERY = 500;

/**
 * Two checks every contract route passes before its handler. The repeat guard remembers a digest
 * of each change for a moment in the database (table repeat_guard), so that a double click or a
 * retry storm answers "too frequent" instead of doing the change twice, whichever process of the
 * console each copy reaches behind a load balancer.
 */
export function installRequestGuards(app: FastifyInstance, options: RequestGuardOptions) {
  let claims = 0;

  app.addHook("preHandler", async (request) => {
    const contract = request.routeOptions.config.contract;
    if (!contract) return;
    const changes = !READS.has(request.method);
    if (options.demoMode) {
      if (contract.demo === "hidden") throw new AppError("demoNoPermission");
      if (changes && contract.demo !== "allowed") throw new AppError("demoForbidden");
    }
    if (!changes || options.repeatWindowMs <= 0) return;
    const key = createHash("sha256")
      .update(
        `${request.headers.authorization ?? request.ip}\n${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`,
      )
      .digest("base64");
    const { rows } = await options.db.query(CLAIM, [key, options.repeatWindowMs]);
    if (++claims % FORGET_EVERY === 0) void options.db.query(FORGET).catch(() => {});
    if (rows.length === 0) throw new AppError("tooFrequent");
  });
}
