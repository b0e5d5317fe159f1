import { API, type FaqClassification, type FaqProblem } from "@ess/contracts";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/db.ts";
import { containsPattern, first, run, sql } from "../../db/sql.ts";
import { business, notFound, ValidationError } from "../../http/errors.ts";
import { fetchPage, LIST_COUNT_AT_MOST, orderBy } from "../../http/paging.ts";
import { bindRoute } from "../../http/route.ts";
import { anyLanguageLike, localised } from "./localised.ts";

interface ClassRow {
  id: number;
  name: unknown;
  description: string;
  summary: string;
  sort: number;
  problem_count: number;
  updated_at: Date;
}

interface ProblemRow {
  id: number;
  classification_id: number;
  class_name: unknown;
  title: unknown;
  content: unknown;
  sort: number;
  state: number;
  updated_at: Date;
}

// The count of problems is kept on the classification by triggers (migration 0250): counting
// them here read every problem of the page's classifications on each request.
const CLASS_SELECT = sql.raw("c.id, c.name, c.description, c.summary, c.sort, c.updated_at, c.problems AS problem_count");
const PROBLEM_SELECT = sql.raw(
  "p.id, p.classification_id, c.name AS class_name, p.title, p.content, p.sort, p.state, p.updated_at",
);
const PROBLEM_FROM = sql.raw("faq_problem p JOIN faq_classification c ON c.id = p.classification_id");

const toClass = (r: ClassRow): FaqClassification => ({
  id: r.id,
  name: localised(r.name),
  description: r.description,
  summary: r.summary,
  sort: r.sort,
  problemCount: r.problem_count,
  updateTime: r.updated_at.toISOString(),
});

const toProblem = (r: ProblemRow): FaqProblem => ({
  id: r.id,
  classificationId: r.classification_id,
  classificationName: localised(r.class_name),
  title: localised(r.title),
  content: localised(r.content),
  sort: r.sort,
  state: r.state,
  updateTime: r.updated_at.toISOString(),
});

/** FAQ management: classifications and their problems, texts in the five languages, one tenant's. */
export function registerFaqRoutes(app: FastifyInstance, deps: { db: Db }) {
  const { db } = deps;

  const findClass = async (tenantId: number, id: number) => {
    const row = await first<ClassRow>(
      db,
      sql`SELECT ${CLASS_SELECT} FROM faq_classification c WHERE c.id = ${id} AND c.tenant_id = ${tenantId}`,
    );
    if (!row) throw notFound("faq:classificationNotFound");
    return toClass(row);
  };
  const findProblem = async (tenantId: number, id: number) => {
    const row = await first<ProblemRow>(
      db,
      sql`SELECT ${PROBLEM_SELECT} FROM ${PROBLEM_FROM} WHERE p.id = ${id} AND p.tenant_id = ${tenantId}`,
    );
    if (!row) throw notFound("faq:problemNotFound");
    return toProblem(row);
  };

  bindRoute(app, API.faq.classPage, async ({ input, auth }) => {
    const q = input.query;
    const pattern = q.keyword === undefined ? null : containsPattern(q.keyword);
    return fetchPage(
      db,
      {
        select: CLASS_SELECT,
        from: sql.raw("faq_classification c"),
        where: sql.and([
          sql`c.tenant_id = ${auth.tenantId}`,
          pattern !== null && sql`(${anyLanguageLike("c.name", pattern)} OR c.summary ILIKE ${pattern})`,
        ]),
        order: orderBy(
          { sort: q.sort ?? "sort", order: q.sort ? q.order : "asc" },
          { id: "c.id", sort: "c.sort", updateTime: "c.updated_at" },
          "c.sort",
        ),
        countAtMost: LIST_COUNT_AT_MOST,
      },
      q,
      toClass,
    );
  });

  bindRoute(app, API.faq.classOptions, async ({ auth }) => {
    const { rows } = await run<{ id: number; name: unknown }>(
      db,
      sql`SELECT id, name FROM faq_classification WHERE tenant_id = ${auth.tenantId} ORDER BY sort, id LIMIT 1000`,
    );
    return rows.map((r) => ({ id: r.id, name: localised(r.name) }));
  });

  bindRoute(app, API.faq.classSave, async ({ input, auth }) => {
    const b = input.body;
    const row = await first<{ id: number }>(
      db,
      sql`INSERT INTO faq_classification (tenant_id, name, description, summary, sort)
          VALUES (${auth.tenantId}, ${JSON.stringify(b.name)}::jsonb, ${b.description}, ${b.summary}, ${b.sort}) RETURNING id`,
    );
    return findClass(auth.tenantId, row?.id as number);
  });

  bindRoute(app, API.faq.classEdit, async ({ input, auth }) => {
    const b = input.body;
    const { rowCount } = await run(
      db,
      sql`UPDATE faq_classification SET name = ${JSON.stringify(b.name)}::jsonb, description = ${b.description},
                 summary = ${b.summary}, sort = ${b.sort}, updated_at = now()
           WHERE id = ${b.id} AND tenant_id = ${auth.tenantId}`,
    );
    if (!rowCount) throw notFound("faq:classificationNotFound");
    return findClass(auth.tenantId, b.id);
  });

  bindRoute(app, API.faq.classDel, async ({ input, auth }) => {
    const id = input.body.id;
    return db.transaction(async (tx) => {
      const row = await first<{ problems: number }>(
        tx,
        // The stored count: the lock waits for a problem being added (its key check shares the
        // row), and one not yet added waits for this deletion.
        sql`SELECT problems FROM faq_classification c WHERE c.id = ${id} AND c.tenant_id = ${auth.tenantId} FOR UPDATE`,
      );
      if (!row) throw notFound("faq:classificationNotFound");
      if (row.problems > 0) throw business("faq:classificationHasProblems", { count: row.problems });
      await run(tx, sql`DELETE FROM faq_classification WHERE id = ${id} AND tenant_id = ${auth.tenantId}`);
      return null;
    });
  });

  bindRoute(app, API.faq.problemPage, async ({ input, auth }) => {
    const q = input.query;
    const pattern = q.keyword === undefined ? null : containsPattern(q.keyword);
    return fetchPage(
      db,
      {
        select: PROBLEM_SELECT,
        from: PROBLEM_FROM,
        where: sql.and([
          sql`p.tenant_id = ${auth.tenantId}`,
          q.classificationId !== undefined && sql`p.classification_id = ${q.classificationId}`,
          q.state !== undefined && sql`p.state = ${q.state}`,
          pattern !== null && sql`p.search_text ILIKE ${pattern}`,
        ]),
        order: orderBy(
          { sort: q.sort ?? "sort", order: q.sort ? q.order : "asc" },
          { id: "p.id", sort: "p.sort", updateTime: "p.updated_at" },
          "p.sort",
        ),
        countAtMost: LIST_COUNT_AT_MOST,
      },
      q,
      toProblem,
    );
  });

  /** The classification must be the tenant's (a refusal at the select otherwise). */
  const checkClass = async (tenantId: number, id: number) => {
    const row = await first(db, sql`SELECT 1 FROM faq_classification WHERE id = ${id} AND tenant_id = ${tenantId}`);
    if (!row)
      throw new ValidationError([
        { field: "classificationId", key: "faq:classificationNotFound", values: {}, label: "fields:faqClassification" },
      ]);
  };

  bindRoute(app, API.faq.problemSave, async ({ input, auth }) => {
    const b = input.body;
    await checkClass(auth.tenantId, b.classificationId);
    const row = await first<{ id: number }>(
      db,
      sql`INSERT INTO faq_problem (tenant_id, classification_id, title, content, sort, state)
          VALUES (${auth.tenantId}, ${b.classificationId}, ${JSON.stringify(b.title)}::jsonb,
                  ${JSON.stringify(b.content)}::jsonb, ${b.sort}, ${b.state}) RETURNING id`,
    );
    return findProblem(auth.tenantId, row?.id as number);
  });

  bindRoute(app, API.faq.problemEdit, async ({ input, auth }) => {
    const b = input.body;
    await checkClass(auth.tenantId, b.classificationId);
    const { rowCount } = await run(
      db,
      sql`UPDATE faq_problem SET classification_id = ${b.classificationId}, title = ${JSON.stringify(b.title)}::jsonb,
                 content = ${JSON.stringify(b.content)}::jsonb, sort = ${b.sort}, state = ${b.state}, updated_at = now()
           WHERE id = ${b.id} AND tenant_id = ${auth.tenantId}`,
    );
    if (!rowCount) throw notFound("faq:problemNotFound");
    return findProblem(auth.tenantId, b.id);
  });

  bindRoute(app, API.faq.problemDel, async ({ input, auth }) => {
    const { rowCount } = await run(db, sql`DELETE FROM faq_problem WHERE id = ${input.body.id} AND tenant_id = ${auth.tenantId}`);
    if (!rowCount) throw notFound("faq:problemNotFound");
    return null;
  });
}
