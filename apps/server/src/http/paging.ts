import type { Page, PageQuery } from "@ess/contracts";

/** Builds the paged answer `{records, total, size, pages, current}` (spec §7). */
export function toPage<T>(records: T[], total: number, query: PageQuery): Page<T> {
  return { records, total, size: query.size, pages: Math.ceil(total / query.size), current: query.current };
}

/** LIMIT and OFFSET for a page query, as SQL parameters. */
export function pageWindow(query: PageQuery): { limit: number; offset: number } {
  return { limit: query.size, offset: (query.current - 1) * query.size };
}
