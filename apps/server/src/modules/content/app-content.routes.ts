import { API } from "@ess/contracts";
import { compareVersions, type Locale, textFor } from "@ess/domain";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/db.ts";
import { containsPattern, first, run, sql } from "../../db/sql.ts";
import { ValidationError } from "../../http/errors.ts";
import { fetchPage, LIST_COUNT_AT_MOST, pageWindow, toPage } from "../../http/paging.ts";
import { bindRoute } from "../../http/route.ts";

type Texts = Record<string, string>;

interface ProblemRow {
  id: number;
  classification_id: number;
  title: Texts;
  content: Texts;
}

/**
 * What the end users' app reads: the FAQ (classifications, then one classification's shown problems,
 * each a page at a time), FAQ search, the address tree one
 * level at a time, and the latest app version. Texts come in the caller's language (Accept-Language),
 * falling back to English, then Chinese, where that language was left empty.
 */
export function registerAppContentRoutes(app: FastifyInstance, deps: { db: Db }) {
  const { db } = deps;
  const problem = (locale: Locale) => (r: ProblemRow) => ({
    id: r.id,
    classificationId: r.classification_id,
    title: textFor(r.title, locale),
    content: textFor(r.content, locale),
  });

  // Classifications a page at a time with their stored count of shown problems (the migration's
  // triggers keep it), so neither read counts problems.
  bindRoute(app, API.appContent.faq, async ({ request, input, auth }) => {
    const locale = request.locale;
    return fetchPage(
      db,
      {
        select: sql.raw("c.id, c.name, c.description, c.summary, c.shown_problems"),
        from: sql.raw("faq_classification c"),
        where: sql`c.tenant_id = ${auth.tenantId}`,
        order: sql.raw("ORDER BY c.sort, c.id"),
        countAtMost: LIST_COUNT_AT_MOST,
      },
      input.query,
      (c: { id: number; name: Texts; description: string; summary: string; shown_problems: number }) => ({
        id: c.id,
        name: textFor(c.name, locale),
        description: c.description,
        summary: c.summary,
        problemCount: c.shown_problems,
      }),
    );
  });

  bindRoute(app, API.appContent.faqProblems, async ({ request, input, auth }) => {
    const { classificationId, ...page } = input.query;
    const { limit, offset } = pageWindow(page);
    const [owner, rows] = await Promise.all([
      first<{ shown_problems: number }>(
        db,
        sql`SELECT shown_problems FROM faq_classification WHERE id = ${classificationId} AND tenant_id = ${auth.tenantId}`,
      ),
      run<ProblemRow>(
        db,
        sql`SELECT id, classification_id, title, content FROM faq_problem
             WHERE tenant_id = ${auth.tenantId} AND classification_id = ${classificationId} AND state = 1
             ORDER BY sort, id LIMIT ${limit} OFFSET ${offset}`,
      ),
    ]);
    // Another tenant's classification reads as unknown, like a missing one.
    if (!owner)
      throw new ValidationError([
        { field: "classificationId", key: "faq:classificationNotFound", values: {}, label: "fields:faqClassification" },
      ]);
    return toPage(rows.rows.map(problem(request.locale)), owner.shown_problems, page);
  });

  bindRoute(app, API.appContent.faqSearch, async ({ request, input, auth }) => {
    const pattern = containsPattern(input.query.keyword);
    const { rows } = await run<ProblemRow>(
      db,
      sql`SELECT p.id, p.classification_id, p.title, p.content
            FROM faq_problem p JOIN faq_classification c ON c.id = p.classification_id
           WHERE p.tenant_id = ${auth.tenantId} AND p.state = 1
             AND p.search_text ILIKE ${pattern}
           ORDER BY c.sort, c.id, p.sort, p.id LIMIT 100`,
    );
    return rows.map(problem(request.locale));
  });

  bindRoute(app, API.appContent.regions, async ({ request, input, auth }) => {
    const locale = request.locale;
    const parentId = input.query.parentId ?? null;
    const { rows } = await run<{
      id: number;
      parent_id: number | null;
      grade: number;
      code: string;
      name: Texts;
      has_children: boolean;
    }>(
      db,
      sql`SELECT r.id, r.parent_id, r.grade, r.code, r.name,
                 EXISTS (SELECT 1 FROM region c WHERE c.parent_id = r.id) AS has_children
            FROM region r
           WHERE r.tenant_id = ${auth.tenantId} AND ${parentId === null ? sql`r.parent_id IS NULL` : sql`r.parent_id = ${parentId}`}
           ORDER BY r.sort, r.id LIMIT 5000`,
    );
    return rows.map((r) => ({
      id: r.id,
      parentId: r.parent_id,
      grade: r.grade,
      code: r.code,
      name: textFor(r.name, locale),
      hasChildren: r.has_children,
    }));
  });

  bindRoute(app, API.appContent.latestVersion, async ({ request, input, auth }) => {
    const { appType, versionCode } = input.query;
    const { rows } = await run<{
      version_code: string;
      version_name: string;
      notes: Texts;
      download_url: string | null;
      store_url: string | null;
      force_update: boolean;
      min_supported_version: string | null;
    }>(
      db,
      sql`SELECT version_code, version_name, notes, download_url, store_url, force_update, min_supported_version
            FROM firmware_version WHERE tenant_id = ${auth.tenantId} AND type = ${appType} AND state = 1 AND deleted_at IS NULL`,
    );
    // Dotted version numbers compare by number (1.10 after 1.9), which SQL text order does not.
    const newest = rows.sort((a, b) => compareVersions(b.version_code, a.version_code))[0];
    if (!newest) return { latest: null, updateAvailable: false, forced: false };
    const updateAvailable = versionCode === undefined || compareVersions(versionCode, newest.version_code) < 0;
    const belowMinimum =
      versionCode !== undefined &&
      newest.min_supported_version !== null &&
      compareVersions(versionCode, newest.min_supported_version) < 0;
    return {
      latest: {
        versionCode: newest.version_code,
        versionName: newest.version_name,
        notes: textFor(newest.notes, request.locale),
        downloadUrl: newest.download_url,
        storeUrl: newest.store_url,
        minSupportedVersion: newest.min_supported_version,
        forceUpdate: newest.force_update,
      },
      updateAvailable,
      forced: updateAvailable && (newest.force_update || belowMinimum),
    };
  });
}
