import { API } from "@ess/contracts";
import {
  AUDIENCES,
  type Audience,
  audienceOfUserType,
  effectiveRights,
  getRegister,
  problem,
  REGISTERS,
  type Rights,
} from "@ess/domain";
import type { FastifyInstance } from "fastify";
import type { Db, Queryable } from "../../db/db.ts";
import { ValidationError } from "../../http/errors.ts";
import { bindRoute } from "../../http/route.ts";

/** The administrators' overrides of one audience (or all), by register id. */
export async function overridesOf(db: Queryable, tenantId: number, audience?: Audience): Promise<Map<string, Rights>> {
  const { rows } = await db.query<{ register_id: string; audience: Audience; can_view: boolean; can_set: boolean }>(
    `SELECT register_id, audience, can_view, can_set FROM register_visibility
      WHERE tenant_id = $1 AND ($2::text IS NULL OR audience = $2)`,
    [tenantId, audience ?? null],
  );
  return new Map(
    rows.map((r) => [audience ? r.register_id : `${r.register_id}|${r.audience}`, { view: r.can_view, set: r.can_set }]),
  );
}

/** What the caller's audience may do with each register: overrides first, then the catalogue. */
export async function rightsOfCaller(db: Queryable, caller: { tenantId: number; userType: number }) {
  const audience = audienceOfUserType(caller.userType);
  const overrides = await overridesOf(db, caller.tenantId, audience);
  return (id: string): Rights => {
    const r = getRegister(id);
    return r ? effectiveRights(r, audience, overrides.get(r.id)) : { view: false, set: false };
  };
}

/** The display configuration: administrators decide per register and audience what is viewed and set. */
export function registerVisibilityRoutes(app: FastifyInstance, deps: { db: Db }) {
  const { db } = deps;
  // Single-phase keys shown on several pages belong to each of them.
  const ofPage = (page: number) => REGISTERS.filter((r) => r.page === page || r.alsoOnPages.includes(page));

  bindRoute(app, API.registerVisibility.list, async ({ input, auth }) => {
    const overrides = await overridesOf(db, auth.tenantId);
    return ofPage(input.query.page).map((r) => ({
      id: r.id,
      settable: r.access === "readWrite",
      rights: Object.fromEntries(
        AUDIENCES.map((a) => {
          const o = overrides.get(`${r.id}|${a}`);
          return [a, { ...effectiveRights(r, a, o), overridden: o !== undefined }];
        }),
      ) as Record<Audience, Rights & { overridden: boolean }>,
    }));
  });

  bindRoute(app, API.registerVisibility.save, async ({ input, auth }) => {
    const problems = input.body.items.flatMap((item, i) => {
      const r = getRegister(item.registerId);
      if (!r || r.id !== item.registerId) return [problem(`items.${i}.registerId`, "settings:unknownRegister")];
      if (item.set && r.access !== "readWrite") return [problem(`items.${i}.set`, "settings:notSettable")];
      return [];
    });
    if (problems.length > 0) throw new ValidationError(problems);
    await db.transaction(async (tx) => {
      for (const item of input.body.items) {
        if (item.reset) {
          await tx.query("DELETE FROM register_visibility WHERE tenant_id = $1 AND register_id = $2 AND audience = $3", [
            auth.tenantId,
            item.registerId,
            item.audience,
          ]);
          continue;
        }
        await tx.query(
          `INSERT INTO register_visibility (tenant_id, register_id, audience, can_view, can_set, updated_by)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (tenant_id, register_id, audience)
           DO UPDATE SET can_view = excluded.can_view, can_set = excluded.can_set, updated_by = excluded.updated_by, updated_at = now()`,
          [auth.tenantId, item.registerId, item.audience, item.view || item.set, item.set, auth.userId],
        );
      }
    });
    return { saved: input.body.items.length };
  });

  bindRoute(app, API.registerVisibility.mine, async ({ input, auth }) => {
    const rightsOf = await rightsOfCaller(db, auth);
    return Object.fromEntries(ofPage(input.query.page).map((r) => [r.id, rightsOf(r.id)]));
  });
}
