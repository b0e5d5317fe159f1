import { z } from "zod";
import { pageQuery } from "./envelope.ts";
import { INT2, INT4, instantInput, text } from "./text.ts";

/**
 * The one list-query convention of the API, so a generic list screen can drive every list:
 * `current` and `size` (paging), `sort` (one of the fields the route allows) and `order`
 * (`asc` or `desc`), plus the route's own filters. Empty filter values count as absent.
 */
export const SORT_ORDERS = ["asc", "desc"] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export const blankToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

/** An optional text filter (trimmed; matched as a substring unless the route says otherwise). */
export const textFilter = z.preprocess(blankToUndefined, text().trim().max(100).optional());
/** An optional integer filter on an integer column (codes, statuses of the operation log). */
export const intFilter = z.preprocess(blankToUndefined, z.coerce.number().int().min(INT4.min).max(INT4.max).optional());
/** An optional integer filter on a smallint column (kinds, levels, states). */
export const smallIntFilter = z.preprocess(blankToUndefined, z.coerce.number().int().min(INT2.min).max(INT2.max).optional());
/** An optional id filter. */
export const idFilter = z.preprocess(blankToUndefined, z.coerce.number().int().min(1).optional());
/** An optional instant filter (ISO 8601 or epoch milliseconds). */
export const timeFilter = z.preprocess(blankToUndefined, instantInput().optional());

export function listQuery<const F extends readonly [string, ...string[]], S extends z.ZodRawShape>(sortable: F, filters: S) {
  return pageQuery.extend({
    sort: z.preprocess(blankToUndefined, z.enum(sortable).optional()),
    order: z.preprocess(blankToUndefined, z.enum(SORT_ORDERS).default("desc")),
    ...filters,
  });
}

/** `{id}` bodies and queries of single-record routes (a query's text is read as a number). */
export const idBody = z.object({ id: z.number().int().min(1) });
export const idQuery = z.object({ id: z.coerce.number().int().min(1) });
