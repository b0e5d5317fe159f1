import type { Page, PageQuery } from "@ess/contracts";
import type { Queryable } from "../db/db.ts";
import { first, run, type Sql, sql } from "../db/sql.ts";

/** Builds the paged answer `{records, total, size, pages, current}` (spec §7). */
export function toPage<T>(records: T[], total: number, query: PageQuery): Page<T> {
  return { records, total, size: query.size, pages: Math.ceil(total / query.size), current: query.current };
}

/** LIMIT and OFFSET for a page query, as SQL parameters. */
export function pageWindow(query: PageQuery): { limit: number; offset: number } {
  return { limit: query.size, offset: (query.current - 1) * query.size };
}

/**
 * ORDER BY for a list query: the caller names a field the contract allows, the route maps it to
 * a column; the id breaks ties so pages never overlap.
 */
export function orderBy(
  query: { sort?: string | undefined; order?: "asc" | "desc" | undefined },
  columns: Readonly<Record<string, string>>,
  fallback: string,
): Sql {
  const column = (query.sort && columns[query.sort]) || fallback;
  const direction = query.order === "asc" ? "ASC" : "DESC";
  const idColumn = columns.id ?? "id";
  return sql.raw(`ORDER BY ${column} ${direction}${column === idColumn ? "" : `, ${idColumn} ${direction}`}`);
}

/**
 * Where the back office's long lists stop counting (`totalCapped`, shown as "2000+"): counting a
 * wide filter over a large table would read every match on every page request.
 */
export const LIST_COUNT_AT_MOST = 2000;

/**
 * How far a capped count goes: at least `countAtMost` records, and always ten pages past the one
 * asked for, so the pager can keep moving forward through a large result.
 */
export function countLimit(countAtMost: number, query: PageQuery): number {
  const { limit, offset } = pageWindow(query);
  return Math.max(countAtMost, offset + 10 * limit);
}

/**
 * Runs a count and one page of a scoped, filtered list. With `countAtMost` the count stops there
 * (see countLimit): counting a wide filter over a large table costs a scan of every match, the page
 * itself only the rows before it. The answer then says `totalCapped` and `total` is the limit.
 */
export async function fetchPage<T, R>(
  db: Queryable,
  parts: { select: Sql; from: Sql; where: Sql; order: Sql; countAtMost?: number },
  query: PageQuery,
  map: (row: T) => R,
): Promise<Page<R>> {
  const { limit, offset } = pageWindow(query);
  const cap = parts.countAtMost === undefined ? undefined : countLimit(parts.countAtMost, query);
  const [count, rows] = await Promise.all([
    first<{ n: number }>(
      db,
      cap === undefined
        ? sql`SELECT count(*)::int AS n FROM ${parts.from} WHERE ${parts.where}`
        : sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM ${parts.from} WHERE ${parts.where} LIMIT ${cap + 1}) counted`,
    ),
    run<T>(
      db,
      sql`SELECT ${parts.select} FROM ${parts.from} WHERE ${parts.where} ${parts.order} LIMIT ${limit} OFFSET ${offset}`,
    ),
  ]);
  const n = count?.n ?? 0;
  if (cap !== undefined && n > cap) return { ...toPage(rows.rows.map(map), cap, query), totalCapped: true };
  return toPage(rows.rows.map(map), n, query);
}
