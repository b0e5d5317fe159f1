import type { Page } from "@ess/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { call } from "../../api/client.ts";
import { filterQuery } from "./filter-query.ts";
import type { CrudConfig, Values } from "./types.ts";

export interface ListState {
  current: number;
  size: number;
  sort?: string | undefined;
  order?: "asc" | "desc" | undefined;
  filters: Values;
}

/**
 * A list screen's server-side state: page, page size, sort and filters go to the route as its
 * query (the API's one list convention, `packages/contracts/src/list.ts`); the answer is cached
 * per query so paging back is instant.
 */
export function useCrudList<R extends { id: number }>(config: CrudConfig<R>) {
  const [state, setState] = useState<ListState>(() => ({
    current: 1,
    size: 10,
    filters: filterQuery(config.filters ?? [], config.initialFilters ?? {}),
  }));
  const query: Values = config.tree
    ? { ...config.baseQuery }
    : {
        ...config.baseQuery,
        ...state.filters,
        current: state.current,
        size: state.size,
        ...(state.sort ? { sort: state.sort, order: state.order ?? "asc" } : {}),
      };
  const result = useQuery({
    queryKey: ["crud", config.id, query],
    queryFn: async (): Promise<Page<R>> => {
      const data = await call(config.list, { query } as never);
      if (config.tree) {
        const records = data as R[];
        return { records, total: records.length, size: records.length, pages: 1, current: 1 };
      }
      return data as Page<R>;
    },
    placeholderData: keepPreviousData,
    refetchInterval: config.refetchMs ?? false,
  });
  return {
    state,
    query,
    page: result.data,
    loading: result.isFetching,
    error: result.error,
    refetch: () => result.refetch(),
    search: (values: Values) => setState((s) => ({ ...s, current: 1, filters: filterQuery(config.filters ?? [], values) })),
    paginate: (current: number, size: number) => setState((s) => ({ ...s, current: size === s.size ? current : 1, size })),
    sortBy: (sort: string | undefined, order: "asc" | "desc" | undefined) =>
      setState((s) => ({ ...s, current: 1, sort: order ? sort : undefined, order })),
  };
}
