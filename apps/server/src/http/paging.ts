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

/** Runs a count and one page of a scoped, filtered list. */
export async function fetchPage<T, R>(
  db: Queryable,
  parts: { select: Sql; from: Sql; where: Sql; order: Sql },
  query: PageQuery,
  map: (row: T) => R,
): Promise<Page<R>> {
  const { limit, offset } = pageWindow(query);
  const count = await first<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM ${parts.from} WHERE ${parts.where}`);
  const rows = await run<T>(
    db,
    sql`SELECT ${parts.select} FROM ${parts.from} WHERE ${parts.where} ${parts.order} LIMIT ${limit} OFFSET ${offset}`,
  );
  return toPage(rows.rows.map(map), count?.n ?? 0, query);
}
