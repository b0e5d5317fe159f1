import { pageQuery, type SepResourceName, type SepResources } from "@ess/sep2";
import type { SepClient } from "./sep-client.ts";

/** Page size the client asks for; servers default to one member when `l` is missing. */
export const PAGE_LIMIT = 50;
/** Pages read at most from one list (a runaway `all` must not loop for ever). */
const MAX_PAGES = 200;

type ListName = SepResourceName & `${string}List`;

/**
 * Every member of a list, read page by page with `s` and `l` until `all` are in, and the list's
 * pollRate (from its first page).
 */
export async function readList<N extends ListName, M>(
  http: SepClient,
  href: string,
  name: N,
  members: (list: SepResources[N]) => M[] | undefined,
  siteId?: number,
): Promise<{ items: M[]; pollRate?: number }> {
  const path = href.split("?")[0] as string;
  const items: M[] = [];
  let pollRate: number | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const list = await http.get(`${path}${pageQuery({ start: items.length, limit: PAGE_LIMIT })}`, [name], siteId);
    if (page === 0) pollRate = (list as { pollRate?: number }).pollRate;
    const got = members(list) ?? [];
    items.push(...got);
    const all = (list as { all: number }).all;
    if (got.length === 0 || items.length >= all) break;
  }
  return { items, pollRate };
}
