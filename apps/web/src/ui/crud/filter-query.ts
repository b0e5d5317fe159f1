import type { Dayjs } from "dayjs";
import type { FieldDef, Values } from "./types.ts";

/** Search-bar values → query values: blanks dropped, date ranges split into their two names. */
export function filterQuery(filters: FieldDef[], values: Values): Values {
  const query: Values = {};
  for (const field of filters) {
    const value = values[field.name];
    if (value === undefined || value === null || value === "") continue;
    if (field.kind === "dateRange" && field.range && Array.isArray(value)) {
      const [from, to] = value as [Dayjs | null, Dayjs | null];
      if (from) query[field.range[0]] = from.toISOString();
      if (to) query[field.range[1]] = to.toISOString();
    } else query[field.name] = typeof value === "string" ? value.trim() : value;
  }
  return query;
}
