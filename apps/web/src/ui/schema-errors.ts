import { describeIssue } from "@ess/contracts";
import type { TFunction } from "i18next";
import type { z } from "zod";

/**
 * Checks form values with a shared zod schema and answers antd field errors, worded like the
 * server's refusals (the same i18n keys, the field named by its label).
 */
export function schemaErrors(schema: z.ZodType, values: unknown, t: TFunction): { name: string[]; errors: string[] }[] {
  const result = schema.safeParse(values, { reportInput: true });
  if (result.success) return [];
  const byField = new Map<string, string>();
  for (const issue of result.error.issues) {
    const problem = describeIssue(issue);
    if (byField.has(problem.field)) continue;
    const leaf = problem.field.split(".").at(-1) ?? problem.field;
    byField.set(problem.field, t(problem.key, { ...problem.values, field: t(`fields:${leaf}`, { defaultValue: leaf }) }));
  }
  return [...byField].map(([field, message]) => ({ name: field.split("."), errors: [message] }));
}
