import { API, type Region } from "@ess/contracts";
import { gradeFits } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import type { Db, Queryable } from "../../db/db.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { containsPattern, first, run, sql } from "../../db/sql.ts";
import { business, notFound, ValidationError } from "../../http/errors.ts";
import { fetchPage, LIST_COUNT_AT_MOST, orderBy } from "../../http/paging.ts";
import { bindRoute } from "../../http/route.ts";
import { anyLanguageLike, localised } from "./localised.ts";

interface RegionRow {
  id: number;
  parent_id: number | null;
  parent_name: unknown;
  grade: number;
  code: string;
  name: unknown;
  sort: number;
  child_count: number;
  updated_at: Date;
}

// The tenant in the children's count lets it use the children's index (tenant, parent, …); by
// parent alone it read every region of the tree for each row of the page.
const SELECT = sql.raw(`r.id, r.parent_id, p.name AS parent_name, r.grade, r.code, r.name, r.sort, r.updated_at,
  (SELECT count(*)::int FROM region c WHERE c.tenant_id = r.tenant_id AND c.parent_id = r.id) AS child_count`);
const FROM = sql.raw("region r LEFT JOIN region p ON p.id = r.parent_id");

const toRegion = (r: RegionRow): Region => ({
  id: r.id,
  parentId: r.parent_id,
  parentName: r.parent_id === null ? null : localised(r.parent_name),
  grade: r.grade,
  code: r.code,
  name: localised(r.name),
  sort: r.sort,
  childCount: r.child_count,
  updateTime: r.updated_at.toISOString(),
});

const refuse = (field: string, key: string, label: string) => new ValidationError([{ field, key, values: {}, label }]);

/** Address management: the tenant's country → region → residence tree. */
export function registerRegionRoutes(app: FastifyInstance, deps: { db: Db }) {
  const { db } = deps;

  const find = async (tenantId: number, id: number) => {
    const row = await first<RegionRow>(db, sql`SELECT ${SELECT} FROM ${FROM} WHERE r.id = ${id} AND r.tenant_id = ${tenantId}`);
    if (!row) throw notFound("regions:notFound");
    return toRegion(row);
  };

  /** Spec §4: a country has no parent; a region sits under a country, a residence under a region. */
  async function checkParent(tx: Queryable, tenantId: number, id: number | null, parentId: number | null, grade: number) {
    let parentGrade: number | null = null;
    if (parentId !== null) {
      const parent = await first<{ grade: number }>(
        tx,
        sql`SELECT grade FROM region WHERE id = ${parentId} AND tenant_id = ${tenantId} FOR SHARE`,
      );
      if (!parent) throw refuse("parentId", "regions:parentNotFound", "fields:regionParent");
      if (id !== null && parentId === id) throw refuse("parentId", "regions:parentSelf", "fields:regionParent");
      parentGrade = parent.grade;
    }
    if (!gradeFits(grade, parentGrade))
      throw refuse(
        "grade",
        parentGrade === null ? "regions:countryHasNoParent" : "regions:gradeBelowParent",
        "fields:regionGrade",
      );
  }

  const taken = (error: unknown): never => {
    if (isUniqueViolation(error)) throw refuse("code", "regions:codeTaken", "fields:regionCode");
    throw error;
  };

  bindRoute(app, API.region.page, async ({ input, auth }) => {
    const q = input.query;
    const pattern = q.keyword === undefined ? null : containsPattern(q.keyword);
    return fetchPage(
      db,
      {
        select: SELECT,
        from: FROM,
        where: sql.and([
          sql`r.tenant_id = ${auth.tenantId}`,
          q.parentId !== undefined && sql`r.parent_id = ${q.parentId}`,
          q.grade !== undefined && sql`r.grade = ${q.grade}`,
          pattern !== null && sql`(r.code ILIKE ${pattern} OR ${anyLanguageLike("r.name", pattern)})`,
        ]),
        order: orderBy(
          { sort: q.sort ?? "sort", order: q.sort ? q.order : "asc" },
          // Children of one region share its grade: ordered by sort alone they come straight from
          // the children's index, where "grade, sort" would walk the whole tree's order index.
          { id: "r.id", sort: q.parentId === undefined ? "r.grade, r.sort" : "r.sort", code: "r.code" },
          "r.sort",
        ),
        countAtMost: LIST_COUNT_AT_MOST,
      },
      q,
      toRegion,
    );
  });

  bindRoute(app, API.region.parents, async ({ auth }) => {
    const { rows } = await run<{ id: number; grade: number; code: string; name: unknown }>(
      db,
      sql`SELECT id, grade, code, name FROM region WHERE tenant_id = ${auth.tenantId} AND grade < 2
           ORDER BY grade, sort, id LIMIT 5000`,
    );
    return rows.map((r) => ({ id: r.id, grade: r.grade, code: r.code, name: localised(r.name) }));
  });

  bindRoute(app, API.region.save, async ({ input, auth }) => {
    const b = input.body;
    const id = await db.transaction(async (tx) => {
      await checkParent(tx, auth.tenantId, null, b.parentId, b.grade);
      const row = await first<{ id: number }>(
        tx,
        sql`INSERT INTO region (tenant_id, parent_id, grade, code, name, sort)
            VALUES (${auth.tenantId}, ${b.parentId}, ${b.grade}, ${b.code}, ${JSON.stringify(b.name)}::jsonb, ${b.sort})
            RETURNING id`,
      ).catch(taken);
      return row?.id as number;
    });
    return find(auth.tenantId, id);
  });

  bindRoute(app, API.region.edit, async ({ input, auth }) => {
    const b = input.body;
    await db.transaction(async (tx) => {
      const current = await first<{ grade: number; children: number }>(
        tx,
        sql`SELECT grade, (SELECT count(*)::int FROM region c WHERE c.parent_id = r.id) AS children
              FROM region r WHERE r.id = ${b.id} AND r.tenant_id = ${auth.tenantId} FOR UPDATE`,
      );
      if (!current) throw notFound("regions:notFound");
      await checkParent(tx, auth.tenantId, b.id, b.parentId, b.grade);
      // Its children stay one grade below it.
      if (current.children > 0 && b.grade !== current.grade)
        throw refuse("grade", "regions:gradeWithChildren", "fields:regionGrade");
      await run(
        tx,
        sql`UPDATE region SET parent_id = ${b.parentId}, grade = ${b.grade}, code = ${b.code},
                   name = ${JSON.stringify(b.name)}::jsonb, sort = ${b.sort}, updated_at = now()
             WHERE id = ${b.id} AND tenant_id = ${auth.tenantId}`,
      ).catch(taken);
    });
    return find(auth.tenantId, b.id);
  });

  bindRoute(app, API.region.del, async ({ input, auth }) => {
    const id = input.body.id;
    await db.transaction(async (tx) => {
      const row = await first<{ children: number }>(
        tx,
        sql`SELECT (SELECT count(*)::int FROM region c WHERE c.parent_id = r.id) AS children
              FROM region r WHERE r.id = ${id} AND r.tenant_id = ${auth.tenantId} FOR UPDATE`,
      );
      if (!row) throw notFound("regions:notFound");
      if (row.children > 0) throw business("regions:hasChildren", { count: row.children });
      await run(tx, sql`DELETE FROM region WHERE id = ${id} AND tenant_id = ${auth.tenantId}`);
    });
    return null;
  });
}
