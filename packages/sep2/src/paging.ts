/**
 * List paging as IEEE 2030.5 defines it: `s` is the index of the first member wanted, `l` how many
 * at most; the answer carries `all` (members in the whole list) and `results` (members on this
 * page). A missing `l` means one member (the standard's default, which the CSIP-AUS reference server
 * keeps), so clients must always send it; negative or non-numeric values are refused.
 */

export interface PageRequest {
  start: number;
  limit: number;
}

export interface Page<T> {
  all: number;
  results: number;
  items: T[];
}

/** Largest page a server hands out in one answer. */
export const MAX_PAGE_LIMIT = 500;

export class PagingError extends Error {
  override name = "PagingError";
}

function count(params: URLSearchParams, name: string, fallback: number): number {
  const raw = params.get(name);
  if (raw === null || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) throw new PagingError(`${name} must be a whole number, got ${raw}`);
  return Number(raw);
}

/** Reads `s` and `l` from a query string; throws PagingError on malformed values. */
export function pageRequest(params: URLSearchParams, maxLimit: number = MAX_PAGE_LIMIT): PageRequest {
  return { start: count(params, "s", 0), limit: Math.min(count(params, "l", 1), maxLimit) };
}

/** The page of `items` the request asks for. */
export function paginate<T>(items: readonly T[], request: PageRequest): Page<T> {
  const page = items.slice(request.start, request.start + request.limit);
  return { all: items.length, results: page.length, items: page };
}

/** The `?s=&l=` query of a request, to append to a list's href. */
export function pageQuery(request: PageRequest): string {
  return `?s=${request.start}&l=${request.limit}`;
}
